module github.com/tcontract/tcontract/gen

go 1.26.0

replace github.com/tcontract/tcontract => ../

require (
	github.com/dave/jennifer v1.7.1
	github.com/tcontract/tcontract v0.0.0-00010101000000-000000000000
)

module github.com/tcontract/tcontract/bench

go 1.26.0

replace github.com/tcontract/tcontract => ../

require (
	github.com/tcontract/tcontract v0.0.0-00010101000000-000000000000
	gonum.org/v1/gonum v0.17.0
)

require golang.org/x/sys v0.50.0 // indirect

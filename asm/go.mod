module github.com/tcontract/tcontract/asm

go 1.26.0

replace github.com/tcontract/tcontract => ../

require github.com/mmcloughlin/avo v0.5.0

require (
	github.com/tcontract/tcontract v0.0.0-00010101000000-000000000000
	golang.org/x/mod v0.6.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/tools v0.2.0 // indirect
)

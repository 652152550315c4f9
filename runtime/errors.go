package runtime

import "errors"

// The sentinel errors of bad input. The root package re-exports them; every
// error a call returns wraps one of them, so callers can use errors.Is.
var (
	ErrSpec    = errors.New("tcontract: bad spec")
	ErrShape   = errors.New("tcontract: bad shape")
	ErrBounds  = errors.New("tcontract: out of bounds")
	ErrOverlap = errors.New("tcontract: overlapping operands")
	ErrClosed  = errors.New("tcontract: pool closed")
)

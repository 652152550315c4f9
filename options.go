package tcontract

// Option adjusts one call. Options are plain values, so passing them
// allocates nothing.
type Option struct {
	pool *Pool
}

// WithPool runs the call on p instead of the package's default pool.
func WithPool(p *Pool) Option { return Option{pool: p} }

func poolOf(opts []Option) *Pool {
	for i := len(opts) - 1; i >= 0; i-- {
		if opts[i].pool != nil {
			return opts[i].pool
		}
	}
	return defaultPool()
}

package httpapi

import "context"

type paramsKey struct{}

func withParams(ctx context.Context, p map[string]string) context.Context {
	return context.WithValue(ctx, paramsKey{}, p)
}

// param returns a path parameter, percent-decoded and already validated
// against the contract.
func param(ctx context.Context, name string) string {
	p, _ := ctx.Value(paramsKey{}).(map[string]string)
	return p[name]
}

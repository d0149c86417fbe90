package main

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

var (
	_ function.Function = reverseFunction{}
	_ function.Function = joinFunction{}
)

// reverseFunction: provider::bridgetest::reverse(s string) string, by Unicode code point.
type reverseFunction struct{}

func (reverseFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "reverse"
}

func (reverseFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Reverses a string",
		Parameters: []function.Parameter{function.StringParameter{Name: "s"}},
		Return:     function.StringReturn{},
	}
}

func (reverseFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	crashAt("function")
	var s string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &s))
	if resp.Error != nil {
		return
	}
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, string(r)))
}

// joinFunction: provider::bridgetest::join(sep string, parts ...string) string.
type joinFunction struct{}

func (joinFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "join"
}

func (joinFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:           "Joins its variadic string arguments with a separator",
		Parameters:        []function.Parameter{function.StringParameter{Name: "sep"}},
		VariadicParameter: function.StringParameter{Name: "parts"},
		Return:            function.StringReturn{},
	}
}

func (joinFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var sep string
	var parts []string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &sep, &parts))
	if resp.Error != nil {
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, strings.Join(parts, sep)))
}

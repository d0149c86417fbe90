// The PCL half every language shares for `pulumi convert --from pcl` and `pulumi import`'s code: parse and bind the
// program through the engine's schema loader, then hand it to the language's own generator.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// schemaLoader is the engine's schema loader at target, cached for the call; done closes the connection.
func schemaLoader(target string) (schema.ReferenceLoader, func(), error) {
	client, err := schema.NewLoaderClient(target)
	if err != nil {
		return nil, nil, err
	}
	return schema.NewCachedLoader(client), func() { _ = client.Close() }, nil
}

// bindOptions are how a converted program binds: invokes in their output form and, unless strict, tolerant of what
// the converter could not resolve.
func bindOptions(strict bool) []pcl.BindOption {
	opts := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !strict {
		opts = append(opts, pcl.NonStrictBindOptions()...)
	}
	return opts
}

// generateProgram parses and binds req's PCL files (in name order, so diagnostics come in a stable order) and turns
// the program into source files with gen.
func generateProgram(req *pulumirpc.GenerateProgramRequest, opts []pcl.BindOption,
	gen func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error),
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, done, err := schemaLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()
	parser := hclsyntax.NewParser()
	names := make([]string, 0, len(req.GetSource()))
	for name := range req.GetSource() {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(req.GetSource()[name]), name); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics)}, nil
		}
	}
	program, diags, err := pcl.BindProgram(parser.Files, loader, opts...)
	if err != nil {
		return nil, err
	}
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiags}, nil
	}
	if program == nil {
		return nil, errors.New("the PCL program bound to nothing")
	}
	files, genDiags, err := gen(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: append(rpcDiags, plugin.HclDiagnosticsToRPCDiagnostics(genDiags)...)}, nil
}

// generateProject binds the PCL folder req.SourceDirectory and writes a whole project for it into
// req.TargetDirectory with gen.
func generateProject(req *pulumirpc.GenerateProjectRequest,
	gen func(dir string, project workspace.Project, program *pcl.Program, localDependencies map[string]string) error,
) (*pulumirpc.GenerateProjectResponse, error) {
	loader, done, err := schemaLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()
	program, diags, err := pcl.BindDirectory(req.GetSourceDirectory(), loader, bindOptions(req.GetStrict())...)
	if err != nil {
		return nil, err
	}
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProjectResponse{Diagnostics: rpcDiags}, nil
	}
	if program == nil {
		return nil, errors.New("the PCL program bound to nothing")
	}
	var project workspace.Project
	if err := json.Unmarshal([]byte(req.GetProject()), &project); err != nil {
		return nil, fmt.Errorf("reading the project: %w", err)
	}
	if err := gen(req.GetTargetDirectory(), project, program, req.GetLocalDependencies()); err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProjectResponse{Diagnostics: rpcDiags}, nil
}

// Command gensdk generates Pulumi SDKs from a package schema with Pulumi's own code generators (pkg/v3/codegen).
// It stands in for `pulumi package gen-sdk`, which delegates to language plugins the Go module proxy here does not
// serve; the schema binding and the generators are the same code the CLI's language plugins run.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
)

// noPackages refuses every cross-package reference: a bridged provider's schema must stand alone.
type noPackages struct{}

var errNoPackages = errors.New("the schema references another package; bridged schemas must be self-contained")

func (noPackages) LoadPackage(string, *semver.Version) (*schema.Package, error) { return nil, errNoPackages }
func (noPackages) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errNoPackages
}
func (noPackages) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errNoPackages
}
func (noPackages) LoadPackageReferenceV2(context.Context, *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, errNoPackages
}

func main() {
	schemaPath := flag.String("schema", "", "path to the package schema JSON")
	language := flag.String("language", "", "nodejs, python or go")
	out := flag.String("out", "", "output directory")
	flag.Parse()
	if *schemaPath == "" || *language == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gensdk -schema FILE -language nodejs|python|go -out DIR")
		os.Exit(2)
	}
	if err := run(*schemaPath, *language, *out); err != nil {
		fmt.Fprintf(os.Stderr, "gensdk: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, language, out string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("parsing %s: %w", schemaPath, err)
	}
	// Binding applies every check the engine applies to a schema; errors and warnings are both reported.
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	for _, d := range diags {
		fmt.Fprintf(os.Stderr, "schema: %s\n", d.Error())
	}
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("%d schema error(s)", len(diags.Errs()))
	}
	var files map[string][]byte
	switch language {
	case "nodejs":
		files, err = nodejs.GeneratePackage("pulumi-terraform-bridge-ts", pkg, nil, nil, false, noPackages{})
	case "python":
		files, err = python.GeneratePackage("pulumi-terraform-bridge-ts", pkg, nil, noPackages{})
	case "go":
		files, err = gogen.GeneratePackage("pulumi-terraform-bridge-ts", pkg, nil)
	default:
		return fmt.Errorf("unknown language %q", language)
	}
	if err != nil {
		return err
	}
	for name, content := range files {
		p := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

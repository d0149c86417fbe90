// Test helpers every language's tests share: the golden schema they generate from, and a schema loader served over
// gRPC as the engine serves its own to a host.
package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"testing"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"google.golang.org/grpc"
)

// goldenSchema is the plugin's schema for the random peer, kept by the project's golden tests.
var goldenSchema = filepath.Join("..", "..", "..", "golden", "random.schema.json")

// fixedLoader serves the packages it holds and nothing else, standing in for the engine's schema loader.
type fixedLoader map[string]*schema.Package

func (l fixedLoader) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	if p, ok := l[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("no package %q here", name)
}

func (l fixedLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.PackageName(), nil)
}

func (l fixedLoader) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	p, err := l.LoadPackage(name, v)
	if err != nil {
		return nil, err
	}
	return p.Reference(), nil
}

func (l fixedLoader) LoadPackageReferenceV2(ctx context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	p, err := l.LoadPackageV2(ctx, d)
	if err != nil {
		return nil, err
	}
	return p.Reference(), nil
}

// serveLoader serves l over gRPC on loopback, as the CLI serves its loader to a language host, and returns its address.
func serveLoader(t *testing.T, l schema.ReferenceLoader) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	schema.LoaderRegistration(schema.NewLoaderServer(l))(srv)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

// Shows that the Node.js host's GeneratePackage writes, byte for byte, the SDK that Pulumi's Node.js generator makes
// when called directly, so the SDKs the e2e tests use are Pulumi's and not this host's.
package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func TestNodejsGeneratePackageIsPulumisGenerator(t *testing.T) {
	schemaText, err := os.ReadFile(filepath.Join("..", "..", "..", "golden", "random.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	loaderAddr := serveLoader(t, fixedLoader{})
	h := &nodejsHost{&host{language: "Node.js"}}

	cases := map[string]*pulumirpc.GeneratePackageRequest{
		"published": {},
		"local":     {Local: true},
		"local dependencies and extra files": {
			Local:             true,
			LocalDependencies: map[string]string{"pulumi": "/tmp/pulumi-nodejs-sdk"},
			ExtraFiles:        map[string][]byte{"overlay/extra.ts": []byte("export const extra = 1;\n")},
		},
	}
	for name, req := range cases {
		t.Run(name, func(t *testing.T) {
			req.Directory = t.TempDir()
			req.Schema = string(schemaText)
			req.LoaderTarget = loaderAddr
			resp, err := h.GeneratePackage(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.GetDiagnostics()) > 0 {
				t.Fatalf("diagnostics: %v", resp.GetDiagnostics())
			}

			// Pulumi's generator, called directly, as Pulumi's own host calls it.
			var spec schema.PackageSpec
			if err := json.Unmarshal(schemaText, &spec); err != nil {
				t.Fatal(err)
			}
			loader := schema.NewCachedLoader(fixedLoader{})
			pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
			if err != nil || diags.HasErrors() {
				t.Fatalf("binding: %v %v", err, diags)
			}
			want, err := nodejs.GeneratePackage("pulumi-language-nodejs", pkg, req.ExtraFiles, req.LocalDependencies, req.Local, loader)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) < 10 {
				t.Fatalf("the generator made only %d files", len(want))
			}

			got := map[string][]byte{}
			err = filepath.WalkDir(req.Directory, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, err := filepath.Rel(req.Directory, path)
				if err != nil {
					return err
				}
				got[filepath.ToSlash(rel)], err = os.ReadFile(path)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			for f, w := range want {
				g, ok := got[f]
				switch {
				case !ok:
					t.Errorf("%s: not written by the host", f)
				case string(g) != string(w):
					t.Errorf("%s: differs from the generator's (%d bytes written, %d generated)", f, len(g), len(w))
				}
			}
			for f := range got {
				if _, ok := want[f]; !ok {
					t.Errorf("%s: written by the host but not generated", f)
				}
			}
		})
	}
}

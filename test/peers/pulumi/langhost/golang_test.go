// Tests of the Go host's calls that need no engine: an SDK written through GeneratePackage is the generator's own
// output byte for byte, Link's go.mod replace, and the package a module's pulumi-plugin.json declares.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func newGoHost() *goHost { return &goHost{&host{language: "Go"}} }

// readTree maps each file under dir (slash-separated, relative) to its contents.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestGeneratePackageIsTheGeneratorsOutput(t *testing.T) {
	raw, err := os.ReadFile(goldenSchema)
	if err != nil {
		t.Fatal(err)
	}
	// As `package gen-sdk` sends the schema, and as `package add` does (supportPack set: the SDK gets its own go.mod).
	for _, supportPack := range []bool{false, true} {
		t.Run(fmt.Sprintf("supportPack=%v", supportPack), func(t *testing.T) {
			var spec schema.PackageSpec
			if err := json.Unmarshal(raw, &spec); err != nil {
				t.Fatal(err)
			}
			if spec.Meta == nil {
				spec.Meta = &schema.MetadataSpec{}
			}
			spec.Meta.SupportPack = supportPack
			text, err := json.Marshal(spec)
			if err != nil {
				t.Fatal(err)
			}

			out := t.TempDir()
			resp, err := newGoHost().GeneratePackage(context.Background(), &pulumirpc.GeneratePackageRequest{
				Directory:    out,
				Schema:       string(text),
				LoaderTarget: serveLoader(t, fixedLoader{}),
				Local:        true,
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range resp.GetDiagnostics() {
				t.Errorf("diagnostic: %v", d)
			}
			got := readTree(t, out)

			pkg, diags, err := schema.BindSpec(spec, fixedLoader{}, schema.ValidationOptions{AllowDanglingReferences: true})
			if err != nil || diags.HasErrors() {
				t.Fatalf("binding the schema directly: %v %v", err, diags)
			}
			want, err := codegen.GeneratePackage("pulumi-language-go", pkg, nil)
			if err != nil {
				t.Fatal(err)
			}

			if len(want) < 10 || want["random/pulumi-plugin.json"] == nil {
				t.Fatalf("the generator wrote too little to compare: %d files", len(want))
			}
			if supportPack && want["go.mod"] == nil {
				t.Fatal("with supportPack the generator writes go.mod")
			}
			names := func(m map[string][]byte) string {
				var s []string
				for k := range m {
					s = append(s, k)
				}
				sort.Strings(s)
				return strings.Join(s, "\n")
			}
			if names(got) != names(want) {
				t.Fatalf("the host wrote other files than the generator:\nhost:\n%s\n\ngenerator:\n%s", names(got), names(want))
			}
			for name, b := range want {
				if string(got[name]) != string(b) {
					t.Errorf("%s differs from the generator's", name)
				}
			}
		})
	}
}

func TestGeneratePackageRefusesOverlays(t *testing.T) {
	_, err := newGoHost().GeneratePackage(context.Background(), &pulumirpc.GeneratePackageRequest{
		Directory:  t.TempDir(),
		Schema:     `{"name":"x"}`,
		ExtraFiles: map[string][]byte{"README.md": []byte("hi")},
	})
	if err == nil || !strings.Contains(err.Error(), "overlays are not supported for Go") {
		t.Fatalf("got %v", err)
	}
}

func TestLinkWritesAReplace(t *testing.T) {
	raw, err := os.ReadFile(goldenSchema)
	if err != nil {
		t.Fatal(err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	spec.Meta.SupportPack = true
	pkg, diags, err := schema.BindSpec(spec, fixedLoader{}, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil || diags.HasErrors() {
		t.Fatalf("%v %v", err, diags)
	}
	dir := t.TempDir()
	const before = "module goproj\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.276.0\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, err := newGoHost().Link(context.Background(), &pulumirpc.LinkRequest{
		Info:         &pulumirpc.ProgramInfo{RootDirectory: dir, ProgramDirectory: dir, EntryPoint: "."},
		LoaderTarget: serveLoader(t, fixedLoader{"random": pkg}),
		Packages: []*pulumirpc.LinkRequest_LinkDependency{{
			Package: &pulumirpc.PackageDependency{Name: "random", Version: "1.0.0"},
			Path:    filepath.Join("sdks", "random"),
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	want := before + "\nreplace github.com/pulumi/pulumi-terraform-provider/sdks/go/random => ./sdks/random\n"
	if string(after) != want {
		t.Errorf("go.mod:\n%s\nwant:\n%s", after, want)
	}
	if !strings.Contains(resp.GetImportInstructions(), `"github.com/pulumi/pulumi-terraform-provider/sdks/go/random/random"`) {
		t.Errorf("instructions: %s", resp.GetImportInstructions())
	}
}

func TestPackageOfAModuleFromItsPluginJSON(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "random"), 0o755); err != nil {
		t.Fatal(err)
	}
	plugin := `{"resource": true, "name": "terraform-provider", "version": "0.3.0",
  "parameterization": {"name": "random", "version": "1.0.0", "value": "eyJsb2NhbCI6e319"}}`
	if err := os.WriteFile(filepath.Join(dir, "random", "pulumi-plugin.json"), []byte(plugin), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, err := goModule{Path: "github.com/pulumi/pulumi-terraform-provider/sdks/go/random", Version: "v0.0.0-00010101000000-000000000000", Dir: dir}.packageOf()
	if err != nil {
		t.Fatal(err)
	}
	if pkg.GetName() != "terraform-provider" || pkg.GetVersion() != "0.3.0" || pkg.GetKind() != "resource" {
		t.Errorf("got %v", pkg)
	}
	if p := pkg.GetParameterization(); p.GetName() != "random" || p.GetVersion() != "1.0.0" || string(p.GetValue()) != `{"local":{}}` {
		t.Errorf("parameterization %v", p)
	}

	// No pulumi-plugin.json and an untagged version: not a Pulumi package.
	if _, err := (goModule{Path: "example.com/x", Version: "v0.0.0-00010101000000-000000000000", Dir: t.TempDir()}).packageOf(); err == nil {
		t.Error("a module without pulumi-plugin.json is no package")
	}
}

func TestPluginVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v1.2.3": "v1.2.3",
		"0.3.0":  "0.3.0",
		// The first commit after v1.29.0 is v1.29.1-0.…: the release it stands for is v1.29.0.
		"v1.29.1-0.20200403140640-efb5e2a48a86": "v1.29.0",
	} {
		if got, err := pluginVersion(in); err != nil || got != want {
			t.Errorf("pluginVersion(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := pluginVersion("v0.0.0-00010101000000-000000000000"); err == nil {
		t.Error("a pseudo-version with no tag before it names no release")
	}
}

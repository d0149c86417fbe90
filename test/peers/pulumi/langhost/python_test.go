// Tests of the Python host's own logic: the SDK it writes is Pulumi's generator's, byte for byte; plugin versions
// from package versions; the packages a program needs from its pulumi-plugin.json files.
package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	pycodegen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func TestPythonGeneratePackageIsPulumisGenerator(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "golden", "random.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	extra := map[string][]byte{"extra/notes.txt": []byte("an overlay file\n")}

	dir := t.TempDir()
	h := &pythonHost{&host{language: "Python"}}
	resp, err := h.GeneratePackage(context.Background(), &pulumirpc.GeneratePackageRequest{
		Directory:    dir,
		Schema:       string(raw),
		ExtraFiles:   extra,
		LoaderTarget: serveLoader(t, fixedLoader{}),
		Local:        true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.GetDiagnostics() {
		t.Logf("diagnostic: %s", d.GetSummary())
	}

	// The same generator, called directly.
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	pkg, diags, err := schema.BindSpec(spec, fixedLoader{}, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil || diags.HasErrors() {
		t.Fatalf("binding: %v %v", err, diags)
	}
	want, err := pycodegen.GeneratePackage("pulumi-language-python", pkg, extra, fixedLoader{})
	if err != nil {
		t.Fatal(err)
	}

	got := map[string][]byte{}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		got[filepath.ToSlash(rel)], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 10 {
		t.Fatalf("the generator wrote only %d files", len(want))
	}
	for name, b := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s: not written by the host", name)
		} else if string(g) != string(b) {
			t.Errorf("%s: the host wrote %d bytes that differ from the generator's %d", name, len(g), len(b))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: written by the host, not by the generator", name)
		}
	}
	if string(got["pulumi_random/extra/notes.txt"]) != "an overlay file\n" {
		t.Errorf("the extra file is not in the package: %v", got["pulumi_random/extra/notes.txt"])
	}
	if _, ok := got["pulumi_random/pulumi-plugin.json"]; !ok {
		t.Errorf("no pulumi-plugin.json")
	}
	t.Logf("%d files, identical", len(want))
}

func TestPEP440ToSemver(t *testing.T) {
	for in, want := range map[string]string{
		"1":                 "1.0.0",
		"1.2":               "1.2.0",
		"3.259.0":           "3.259.0",
		"1.2.3a4":           "1.2.3-alpha.4",
		"1.2.3b4":           "1.2.3-beta.4",
		"1.2.3rc4":          "1.2.3-rc.4",
		"1.2.3.post4":       "1.2.3+post4",
		"1.2.3.dev5":        "1.2.3+dev5",
		"1.2.3.post4.dev5":  "1.2.3+post4dev5",
		"1.2.3rc1.post2":    "1.2.3-rc.1+post2",
		"1!1.0":             "",
		"1.0+local":         "",
		"3.31.0a1605189729": "3.31.0-alpha.1605189729",
	} {
		got, ok := pep440ToSemver(in)
		if (want == "") == ok || got != want {
			t.Errorf("pep440ToSemver(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestPythonPackageDependency(t *testing.T) {
	param := &plugin.PulumiParameterizationJSON{Name: "random", Version: "0.0.0", Value: []byte(`{"local":{"path":"/x"}}`)}
	cases := []struct {
		pkg  pythonPackage
		want *pulumirpc.PackageDependency
	}{
		{ // a bridged SDK: the base plugin, with its parameterization
			pythonPackage{Name: "pulumi-random", Version: "0.0.0", Plugin: &plugin.PulumiPluginJSON{Resource: true, Name: "terraform-provider", Version: "1.2.0", Parameterization: param}},
			&pulumirpc.PackageDependency{Name: "terraform-provider", Version: "v1.2.0", Kind: "resource", Parameterization: &pulumirpc.PackageParameterization{Name: "random", Version: "0.0.0", Value: param.Value}},
		},
		{ // an old SDK without pulumi-plugin.json: name and version from the package's
			pythonPackage{Name: "pulumi-aws", Version: "6.1.0rc2"},
			&pulumirpc.PackageDependency{Name: "aws", Version: "v6.1.0-rc.2", Kind: "resource"},
		},
		{pythonPackage{Name: "pulumi-policy", Version: "1.0.0"}, nil},
		{pythonPackage{Name: "pulumi-kubernetes-cert-manager", Version: "1.0.0", Plugin: &plugin.PulumiPluginJSON{Resource: false}}, nil},
		{pythonPackage{Name: "pulumi-odd", Version: "1!2.0"}, nil},
	}
	for _, c := range cases {
		got := pyPackageDependency(c.pkg)
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(c.want)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%s: got %s, want %s", c.pkg.Name, gotJSON, wantJSON)
		}
	}
}

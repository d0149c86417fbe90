// Go code generation through Pulumi's own generator (pkg/v3/codegen/go): SDKs, programs and projects, and linking a
// generated SDK into a program's go.mod.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/fsutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/modfile"
)

// goTool is the generator's name written into every generated file's header; Pulumi's host passes its own name, and
// the same name keeps our SDKs byte for byte the same as its.
const goTool = "pulumi-language-go"

// noPanic turns a panic of the generator (it panics on Go it produced but cannot format) into the call's error, so
// that one bad schema does not take the host down with the engine's other calls.
func noPanic(call string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: the Go generator failed: %v", call, r)
	}
}

// GeneratePackage writes the Go SDK of req.Schema into req.Directory. `local` makes no difference for Go: the module
// is linked with a replace whatever it is, and extra files (overlays) Pulumi's Go host refuses too.
func (h *goHost) GeneratePackage(_ context.Context, req *pulumirpc.GeneratePackageRequest) (_ *pulumirpc.GeneratePackageResponse, err error) {
	defer noPanic("GeneratePackage", &err)
	if len(req.GetExtraFiles()) > 0 {
		return nil, errors.New("overlays are not supported for Go")
	}
	loader, done, err := schemaLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiags}, nil
	}
	files, err := codegen.GeneratePackage(goTool, pkg, req.GetLocalDependencies())
	if err != nil {
		return nil, err
	}
	if err := writeFiles(req.GetDirectory(), files); err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiags}, nil
}

// writeFiles writes generated files under dir, private to the user as Pulumi's host writes them (the CLI copies
// them to their place afterwards).
func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return fmt.Errorf("could not create output directory %s: %w", filepath.Dir(name), err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			return fmt.Errorf("could not write output file %s: %w", name, err)
		}
	}
	return nil
}

// GenerateProgram turns PCL into Go source (`pulumi import` prints it, `pulumi convert` writes it); as Pulumi's Go
// host, it binds strictly.
func (h *goHost) GenerateProgram(_ context.Context, req *pulumirpc.GenerateProgramRequest) (_ *pulumirpc.GenerateProgramResponse, err error) {
	defer noPanic("GenerateProgram", &err)
	return generateProgram(req, []pcl.BindOption{pcl.PreferOutputVersionedInvokes}, codegen.GenerateProgram)
}

// GenerateProject writes a whole Go project (main.go, go.mod, Pulumi.yaml) from a directory of PCL: `pulumi convert`.
func (h *goHost) GenerateProject(_ context.Context, req *pulumirpc.GenerateProjectRequest) (_ *pulumirpc.GenerateProjectResponse, err error) {
	defer noPanic("GenerateProject", &err)
	return generateProject(req, codegen.GenerateProject)
}

// sdkPaths are the Go module path of a generated SDK and the import path of its root package.
func sdkPaths(pkg *schema.Package) (string, string, error) {
	if err := pkg.ImportLanguages(map[string]schema.Language{"go": codegen.Importer}); err != nil {
		return "", "", err
	}
	if pkg.SupportPack {
		// The generator wrote the go.mod itself; this is the module path it wrote there.
		return codegen.ModuleAndImportPath(pkg)
	}
	info, _ := pkg.Language["go"].(codegen.GoPackageInfo)
	modulePath := info.ModulePath
	if modulePath == "" && info.ImportBasePath != "" {
		modulePath = path.Dir(info.ImportBasePath)
	}
	if modulePath == "" {
		modulePath = codegen.ExtractModulePath(pkg.Reference())
	}
	importPath := info.ImportBasePath
	if importPath == "" {
		importPath = codegen.ExtractImportBasePath(pkg.Reference())
	}
	return modulePath, importPath, nil
}

// Link points the program's go.mod at each generated SDK with a `replace` of its module path by its folder, as
// `pulumi package add` does; the require comes when `go mod tidy` (InstallDependencies, run next by the CLI) finds
// the SDK imported.
func (h *goHost) Link(ctx context.Context, req *pulumirpc.LinkRequest) (_ *pulumirpc.LinkResponse, err error) {
	defer noPanic("Link", &err)
	loader, done, err := schemaLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()

	replaces := map[string]string{} // module path => folder
	var imports []string
	for _, dep := range req.GetPackages() {
		dir := dep.GetPath()
		// A relative replacement must start with ./ or ../, or Go takes it for a module path.
		if !filepath.IsAbs(dir) && !strings.HasPrefix(dir, "./") && !strings.HasPrefix(dir, "../") {
			dir = "./" + dir
		}
		if dep.GetPackage().GetName() == "pulumi" {
			replaces["github.com/pulumi/pulumi/sdk/v3"] = dir
			continue
		}
		ref, err := schema.LoadPackageReferenceV2(ctx, loader, descriptorOf(dep.GetPackage()))
		if err != nil {
			return nil, err
		}
		pkg, err := ref.Definition()
		if err != nil {
			return nil, err
		}
		modulePath, _, err := sdkPaths(pkg)
		if err != nil {
			return nil, err
		}
		replaces[modulePath] = dir
		// The hint names the path Pulumi's host names (from the package's repository), which the docs quote, even
		// where the generated SDK's own import path differs.
		imports = append(imports, codegen.ExtractImportBasePath(pkg.Reference()))
	}

	file := filepath.Join(req.GetInfo().GetProgramDirectory(), "go.mod")
	st, err := os.Stat(file)
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", file, err)
	}
	body, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading go.mod: %w", err)
	}
	gomod, err := modfile.Parse(file, body, nil)
	if err != nil {
		return nil, fmt.Errorf("go.mod parse: %w", err)
	}
	modules := make([]string, 0, len(replaces))
	for m := range replaces {
		modules = append(modules, m)
	}
	sort.Strings(modules)
	for _, m := range modules {
		if err := gomod.AddReplace(m, "", replaces[m], ""); err != nil {
			return nil, fmt.Errorf("could not add replace statement: %w", err)
		}
	}
	out, err := gomod.Format()
	if err != nil {
		return nil, fmt.Errorf("formatting go.mod: %w", err)
	}
	if err := os.WriteFile(file, out, st.Mode().Perm()); err != nil {
		return nil, fmt.Errorf("writing go.mod: %w", err)
	}
	return &pulumirpc.LinkResponse{ImportInstructions: importInstructions(imports)}, nil
}

func importInstructions(imports []string) string {
	var b strings.Builder
	if len(imports) > 1 {
		b.WriteString("You can import the SDKs in your Go code with:\n\n  import (\n")
	} else {
		b.WriteString("You can import the SDK in your Go code with:\n\n  import (\n")
	}
	for _, p := range imports {
		fmt.Fprintf(&b, "    %q\n", p)
	}
	b.WriteString("  )\n")
	return b.String()
}

// Pack has nothing to build for Go: the SDK's source is the artifact, copied under a folder named after its module.
func (h *goHost) Pack(_ context.Context, req *pulumirpc.PackRequest) (*pulumirpc.PackResponse, error) {
	body, err := os.ReadFile(filepath.Join(req.GetPackageDirectory(), "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("read go.mod: %w", err)
	}
	mod, err := modfile.Parse("go.mod", body, nil)
	if err != nil {
		return nil, fmt.Errorf("parse go.mod: %w", err)
	}
	if mod.Module == nil {
		return nil, errors.New("go.mod has no module line")
	}
	artifact := filepath.Join(req.GetDestinationDirectory(), strings.ReplaceAll(mod.Module.Mod.Path, "/", "_"))
	if err := fsutil.CopyFile(artifact, req.GetPackageDirectory(), nil); err != nil {
		return nil, fmt.Errorf("copy package: %w", err)
	}
	return &pulumirpc.PackResponse{ArtifactPath: artifact}, nil
}

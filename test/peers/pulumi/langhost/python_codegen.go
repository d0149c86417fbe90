// The Python host's code generation: SDKs (`pulumi package gen-sdk`, `package add`), programs and projects from PCL
// (`pulumi convert`, `pulumi import`), and linking a local SDK into a project (`package add`).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	pycodegen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

// pythonTool is the generator name written into generated files' headers; Pulumi's host passes its own name.
const pythonTool = "pulumi-language-python"

// GeneratePackage binds the schema through the engine's loader (references to other packages resolve there) and
// writes Pulumi's Python SDK for it into req.Directory. The Python generator has no local flavour: req.Local and
// req.LocalDependencies change nothing, as in Pulumi's host.
func (p *pythonHost) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	loader, done, err := schemaLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	files, err := pycodegen.GeneratePackage(pythonTool, pkg, req.GetExtraFiles(), loader)
	if err != nil {
		return nil, err
	}
	if err := pyWriteFiles(req.GetDirectory(), files); err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

// pyWriteFiles writes generated files (paths relative to dir, slash-separated) under dir.
func pyWriteFiles(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// GenerateProgram turns PCL files into Python source files (`pulumi import` prints them; `pulumi convert` writes them).
func (p *pythonHost) GenerateProgram(_ context.Context, req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	return generateProgram(req, bindOptions(req.GetStrict()), pycodegen.GenerateProgram)
}

// GenerateProject writes a whole Python project from a folder of PCL (`pulumi convert --from pcl`): Pulumi.yaml,
// requirements.txt and __main__.py, as Pulumi's generator lays them out.
func (p *pythonHost) GenerateProject(_ context.Context, req *pulumirpc.GenerateProjectRequest) (*pulumirpc.GenerateProjectResponse, error) {
	return generateProject(req, func(dir string, project workspace.Project, program *pcl.Program, deps map[string]string) error {
		// No typechecker and the default toolchain in the generated Pulumi.yaml, as Pulumi's host outside its own tests.
		return pycodegen.GenerateProject(dir, project, program, deps, "", "")
	})
}

// Link adds local SDKs to the project's dependencies: for pip, each SDK's folder (relative to the project) as a line
// of requirements.txt, replacing a line naming the same package; for uv and poetry, their pyproject.toml entries. It
// installs nothing: the CLI asks for InstallDependencies next.
func (p *pythonHost) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	info := req.GetInfo()
	opts, err := pythonOptions(info, false)
	if err != nil {
		return nil, err
	}
	loader, done, err := schemaLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()

	paths := map[string]string{} // Python distribution name → path
	var imports strings.Builder
	for _, dep := range req.GetPackages() {
		pkgDep := dep.GetPackage()
		if pkgDep.GetName() == "pulumi" {
			paths["pulumi"] = dep.GetPath()
			continue
		}
		ref, err := schema.LoadPackageReferenceV2(ctx, loader, descriptorOf(pkgDep))
		if err != nil {
			return nil, fmt.Errorf("loading the schema of %s: %w", pkgDep.GetName(), err)
		}
		def, err := ref.Definition()
		if err != nil {
			return nil, err
		}
		if err := def.ImportLanguages(map[string]schema.Language{"python": pycodegen.Importer}); err != nil {
			return nil, err
		}
		module := pycodegen.PyPack(ref.Namespace(), ref.Name())
		if info, ok := def.Language["python"].(pycodegen.PackageInfo); ok && info.PackageName != "" {
			module = info.PackageName
		}
		paths[module] = dep.GetPath()
		fmt.Fprintf(&imports, "  import %s as %s\n", module, strings.ReplaceAll(ref.Name(), "-", "_"))
	}

	// A project set to uv or poetry that has no pyproject.toml yet (requirements.txt until its first `pulumi
	// install` converts it) gets the line in requirements.txt, which that conversion carries over.
	if !pyUsesPip(opts) {
		if _, err := os.Stat(filepath.Join(info.GetProgramDirectory(), "pyproject.toml")); os.IsNotExist(err) {
			if _, err := os.Stat(filepath.Join(info.GetProgramDirectory(), "requirements.txt")); err != nil {
				return nil, fmt.Errorf("no pyproject.toml or requirements.txt in %s", info.GetProgramDirectory())
			}
			opts.Toolchain = toolchain.Pip
		}
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	if err := tc.LinkPackages(ctx, paths); err != nil {
		return nil, fmt.Errorf("linking packages: %w", err)
	}
	what := "the SDK"
	if len(req.GetPackages()) > 1 {
		what = "the SDKs"
	}
	return &pulumirpc.LinkResponse{ImportInstructions: fmt.Sprintf("You can import %s in your Python code with:\n\n%s", what, imports.String())}, nil
}

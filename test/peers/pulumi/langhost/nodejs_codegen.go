// The Node.js host's code generation: SDKs (`pulumi package gen-sdk`, `package add`), linking a local SDK into a
// program, and programs and projects from PCL (`pulumi convert`, `pulumi import`), all through pkg/v3/codegen/nodejs
// with schemas bound through the engine's loader.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/hashicorp/hcl/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/cgstrings"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/fsutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
)

// nodejsTool is the generator's name for itself, written into every generated file's header; the same as Pulumi's
// host, so that an SDK generated here is the one Pulumi's host would generate.
const nodejsTool = "pulumi-language-nodejs"

// GeneratePackage writes the SDK for req.Schema into req.Directory. With Local, the SDK's package.json compiles it
// with a postinstall script when the program's install installs it (`pulumi package add`); LocalDependencies point
// its dependencies (@pulumi/pulumi, another package's SDK) at local copies.
func (h *nodejsHost) GeneratePackage(_ context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	loader, done, err := schemaLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()
	files, diags, err := generateNodejsPackage(req, loader)
	if err != nil {
		return nil, err
	}
	if files == nil {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: diags}, nil
	}
	for name, data := range files {
		path := filepath.Join(req.GetDirectory(), name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("creating the folder of %s: %w", name, err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: diags}, nil
}

// generateNodejsPackage binds the schema and generates the SDK's files; no files (and the diagnostics) when the
// schema does not bind. References to other packages bind lazily through loader, and a dangling one is allowed, as
// the engine allows it.
func generateNodejsPackage(req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader) (map[string][]byte, []*codegenrpc.Diagnostic, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, nil, fmt.Errorf("the schema is not a package schema: %w", err)
	}
	pkg, hdiags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, nil, err
	}
	diags := plugin.HclDiagnosticsToRPCDiagnostics(hdiags)
	if hdiags.HasErrors() {
		return nil, diags, nil
	}
	files, err := nodejs.GeneratePackage(nodejsTool, pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), loader)
	if err != nil {
		return nil, nil, err
	}
	return files, diags, nil
}

// Link adds each generated SDK to the program's package.json as a `file:` dependency (with npm, also allowing its
// install scripts, which compile it), as `pulumi package add` expects, and says how to import it. The CLI installs
// the program's dependencies afterwards.
func (h *nodejsHost) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	info := req.GetInfo()
	opts, err := nodejsOptionsOf(info)
	if err != nil {
		return nil, err
	}
	loader, done, err := schemaLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer done()
	dir := info.GetProgramDirectory()
	pm, err := npm.ResolvePackageManager(opts.packagemanager, dir)
	if err != nil {
		return nil, err
	}

	typescript := opts.typescript || opts.tsconfig != ""
	if !typescript {
		_, err := fsutil.Searchup(dir, "tsconfig.json")
		typescript = err == nil
	}
	modules := typescript || nodejsIsModule(dir)

	var imports strings.Builder
	for _, dep := range req.GetPackages() {
		pkgRef, err := schema.LoadPackageReferenceV2(ctx, loader, descriptorOf(dep.GetPackage()))
		if err != nil {
			return nil, err
		}
		pkg, err := pkgRef.Definition()
		if err != nil {
			return nil, err
		}
		if err := pkg.ImportLanguages(map[string]schema.Language{"nodejs": nodejs.Importer}); err != nil {
			return nil, err
		}
		name := nodejsPackageName(pkg)
		if err := pm.Link(ctx, dir, name, dep.GetPath()); err != nil {
			return nil, err
		}
		ident := cgstrings.Camel(pkgRef.Name())
		if modules {
			fmt.Fprintf(&imports, "  import * as %s from %q;\n", ident, name)
		} else {
			fmt.Fprintf(&imports, "  const %s = require(%q);\n", ident, name)
		}
	}
	lang := "JavaScript"
	if typescript {
		lang = "TypeScript"
	}
	return &pulumirpc.LinkResponse{
		ImportInstructions: fmt.Sprintf("You can import the SDK in your %s code with:\n\n%s", lang, imports.String()),
	}, nil
}

// nodejsIsModule says whether the program's package.json has `"type": "module"` (import rather than require).
func nodejsIsModule(dir string) bool {
	path, err := npm.SearchupPackageManifest(dir)
	if err != nil {
		return false
	}
	manifest, _, err := npm.ReadPackageManifest(filepath.Dir(path))
	if err != nil {
		return false
	}
	typ, _ := manifest["type"].(string)
	return typ == "module"
}

// nodejsPackageName is the npm name of a package's SDK: its schema's `language.nodejs.packageName`, else
// @<namespace>/<name>, else @pulumi/<name>, as the generator names it.
func nodejsPackageName(pkg *schema.Package) string {
	if info, ok := pkg.Language["nodejs"].(nodejs.NodePackageInfo); ok && info.PackageName != "" {
		return info.PackageName
	}
	if pkg.Namespace != "" {
		return "@" + pkg.Namespace + "/" + pkg.Name
	}
	return "@pulumi/" + pkg.Name
}

// GenerateProject writes a whole TypeScript project (Pulumi.yaml, package.json, tsconfig.json, index.ts) for the PCL
// program in req.SourceDirectory: `pulumi convert --from pcl --language typescript`.
func (h *nodejsHost) GenerateProject(_ context.Context, req *pulumirpc.GenerateProjectRequest) (*pulumirpc.GenerateProjectResponse, error) {
	return generateProject(req, func(dir string, project workspace.Project, program *pcl.Program, deps map[string]string) error {
		return nodejs.GenerateProject(dir, project, program, deps, false, "nodejs")
	})
}

// GenerateProgram turns PCL source into TypeScript source (`pulumi import` prints it, `pulumi convert` writes it).
func (h *nodejsHost) GenerateProgram(_ context.Context, req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	return generateProgram(req, bindOptions(req.GetStrict()), func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error) {
		return nodejs.GenerateProgramWithOptions(program, nodejs.ProgramOptions{Runtime: "nodejs"})
	})
}

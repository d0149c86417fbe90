// The package descriptions every language shares: a required package as the engine's gRPC has it, from the
// pulumi-plugin.json (or package.json "pulumi" section) a language finds, and back as the schema loader's descriptor.
package main

import (
	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// rpcParameterization is a plugin file's parameterization as GetRequiredPackages answers it; nil for none.
func rpcParameterization(p *plugin.PulumiParameterizationJSON) *pulumirpc.PackageParameterization {
	if p == nil {
		return nil
	}
	return &pulumirpc.PackageParameterization{Name: p.Name, Version: p.Version, Value: p.Value}
}

// descriptorOf is what the engine's loader needs to find a package's schema again.
func descriptorOf(dep *pulumirpc.PackageDependency) *schema.PackageDescriptor {
	d := &schema.PackageDescriptor{Name: dep.GetName(), DownloadURL: dep.GetServer()}
	if v, err := semver.ParseTolerant(dep.GetVersion()); err == nil {
		d.Version = &v
	}
	if p := dep.GetParameterization(); p != nil {
		d.Parameterization = &schema.ParameterizationDescriptor{Name: p.GetName(), Value: p.GetValue()}
		if v, err := semver.ParseTolerant(p.GetVersion()); err == nil {
			d.Parameterization.Version = v
		}
	}
	return d
}

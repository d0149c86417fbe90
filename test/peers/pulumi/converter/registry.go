// The provider version questions, asked as Pulumi's converter asks them before it writes a package block, learnt from
// its source (pulumi-converter-terraform 1.3.0-57-gd764399, pkg/convert/tf_package_version.go, findTfPackageVersion):
// for each provider of the project's required_providers, its source address parsed with OpenTofu's rules (a bare
// `namespace/type` is on registry.opentofu.org), Terraform's registry client asks the host's service discovery
// document (https://<host>/.well-known/terraform.json, `providers.v1`) and then `<providers.v1><namespace>/<type>/versions`,
// over Go's HTTP client (HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE as Go reads them), and the newest listed version that meets
// the constraint is the one it writes. No answer, or none that meets the constraint, is the error diagnostic
// "could not resolve provider version", and the conversion fails. (The real converter asks at two points, for the
// mapping and for the package block, with the same answer; this asks once.)
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"github.com/zclconf/go-cty/cty"
)

// requiredProvider is one entry of a required_providers block.
type requiredProvider struct {
	name       string
	source     string // as written; the type's own name when there is none
	constraint string
	rng        hcl.Range
}

// requiredProviders reads every required_providers block of the project's top-level .tf files.
func requiredProviders(src map[string][]byte) ([]requiredProvider, error) {
	var names []string
	for name := range src {
		if !strings.Contains(name, "/") && strings.HasSuffix(name, ".tf") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var out []requiredProvider
	for _, name := range names {
		file, diags := hclsyntax.ParseConfig(src[name], name, hcl.InitialPos)
		if diags.HasErrors() {
			return nil, fmt.Errorf("parsing %s: %s", name, diags.Error())
		}
		for _, tf := range file.Body.(*hclsyntax.Body).Blocks {
			if tf.Type != "terraform" {
				continue
			}
			for _, rp := range tf.Body.Blocks {
				if rp.Type != "required_providers" {
					continue
				}
				for _, attr := range rp.Body.Attributes {
					v, diags := attr.Expr.Value(nil)
					if diags.HasErrors() {
						return nil, fmt.Errorf("%s: required provider %s: %s", name, attr.Name, diags.Error())
					}
					p := requiredProvider{name: attr.Name, source: attr.Name, rng: attr.SrcRange}
					switch {
					case v.Type() == cty.String:
						p.constraint = v.AsString()
					case v.Type().IsObjectType():
						if v.Type().HasAttribute("source") {
							p.source = v.GetAttr("source").AsString()
						}
						if v.Type().HasAttribute("version") {
							p.constraint = v.GetAttr("version").AsString()
						}
					}
					out = append(out, p)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// address is host/namespace/type with OpenTofu's defaults: registry.opentofu.org and hashicorp.
func address(source string) (host, namespace, typ string) {
	parts := strings.Split(strings.ToLower(source), "/")
	host, namespace = "registry.opentofu.org", "hashicorp"
	typ = parts[len(parts)-1]
	if len(parts) >= 2 {
		namespace = parts[len(parts)-2]
	}
	if len(parts) == 3 {
		host = parts[0]
	}
	return host, namespace, typ
}

// registryClient is Terraform's: one timeout per request (TF_REGISTRY_CLIENT_TIMEOUT's default), the proxy and CAs
// from the environment.
var registryClient = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: http.ProxyFromEnvironment}}

func getJSON(ctx context.Context, u string, into any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := registryClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	return resp.StatusCode, json.NewDecoder(resp.Body).Decode(into)
}

// availableVersions is the registry source's AvailableVersions: discovery, then the version listing; errors worded as
// Terraform's getproviders words them.
func availableVersions(ctx context.Context, host, namespace, typ string) ([]string, error) {
	discovery := "https://" + host + "/.well-known/terraform.json"
	var services map[string]any
	status, err := getJSON(ctx, discovery, &services)
	if err != nil {
		return nil, fmt.Errorf("could not connect to %s: failed to request discovery document: %w", host, err)
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("could not connect to %s: failed to request discovery document: %d %s", host, status, http.StatusText(status))
	}
	base, ok := services["providers.v1"].(string)
	if !ok {
		return nil, fmt.Errorf("host %s does not offer a provider registry", host)
	}
	baseURL, err := url.Parse(discovery)
	if err == nil {
		var rel *url.URL
		if rel, err = url.Parse(base); err == nil {
			baseURL = baseURL.ResolveReference(rel)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("host %s gives an invalid providers.v1 URL %q: %w", host, base, err)
	}
	listing := baseURL.ResolveReference(&url.URL{Path: path.Join(namespace, typ, "versions")})
	var body struct {
		Versions []struct {
			Version string `json:"version"`
		} `json:"versions"`
	}
	status, err = getJSON(ctx, listing.String(), &body)
	switch {
	case err != nil:
		return nil, fmt.Errorf("could not query provider registry for %s/%s/%s: %w", host, namespace, typ, err)
	case status == http.StatusNotFound:
		return nil, fmt.Errorf("provider registry %s does not have a provider named %s/%s/%s", host, host, namespace, typ)
	case status != http.StatusOK:
		return nil, fmt.Errorf("could not query provider registry for %s/%s/%s: %d %s", host, namespace, typ, status, http.StatusText(status))
	}
	var out []string
	for _, v := range body.Versions {
		out = append(out, v.Version)
	}
	return out, nil
}

var constraintClause = regexp.MustCompile(`^\s*(=|!=|>=|<=|>|<|~>)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$`)

// newestMeeting is the newest release in versions that meets a Terraform constraint (`~> 2.5`, `>= 1, < 3`, …).
func newestMeeting(versions []string, constraint string) (string, error) {
	type clause struct {
		op        string
		v         semver.Version
		precision int
	}
	var clauses []clause
	if strings.TrimSpace(constraint) != "" {
		for _, part := range strings.Split(constraint, ",") {
			m := constraintClause.FindStringSubmatch(part)
			if m == nil {
				return "", fmt.Errorf("invalid version constraint %q", constraint)
			}
			c := clause{op: m[1], precision: 1}
			if c.op == "" {
				c.op = "="
			}
			nums := []string{m[2], "0", "0"}
			for i, n := range []string{m[3], m[4]} {
				if n != "" {
					nums[i+1] = n
					c.precision = i + 2
				}
			}
			c.v = semver.MustParse(strings.Join(nums, "."))
			clauses = append(clauses, c)
		}
	}
	meets := func(v semver.Version) bool {
		for _, c := range clauses {
			ok := false
			switch c.op {
			case "=":
				ok = v.Equals(c.v)
			case "!=":
				ok = !v.Equals(c.v)
			case ">":
				ok = v.GT(c.v)
			case ">=":
				ok = v.GTE(c.v)
			case "<":
				ok = v.LT(c.v)
			case "<=":
				ok = v.LTE(c.v)
			case "~>":
				upper := semver.Version{Major: c.v.Major + 1}
				if c.precision == 3 {
					upper = semver.Version{Major: c.v.Major, Minor: c.v.Minor + 1}
				}
				ok = v.GTE(c.v) && v.LT(upper)
			}
			if !ok {
				return false
			}
		}
		return true
	}
	var best *semver.Version
	for _, s := range versions {
		v, err := semver.Parse(s)
		if err != nil || len(v.Pre) > 0 || !meets(v) {
			continue
		}
		if best == nil || v.GT(*best) {
			best = &v
		}
	}
	if best == nil {
		return "", nil
	}
	return best.String(), nil
}

// resolveVersions asks the version of each required provider as the real converter does: the versions resolved, by
// provider name, or the error diagnostics the real converter would give.
func resolveVersions(ctx context.Context, src map[string][]byte) (map[string]string, []*codegenrpc.Diagnostic, error) {
	providers, err := requiredProviders(src)
	if err != nil {
		return nil, nil, err
	}
	resolved := map[string]string{}
	var diags []*codegenrpc.Diagnostic
	for _, p := range providers {
		host, namespace, typ := address(p.source)
		available, err := availableVersions(ctx, host, namespace, typ)
		if err != nil {
			diags = append(diags, diagnostic(p.rng, "provider version error", err.Error()))
		}
		version, cerr := newestMeeting(available, p.constraint)
		if cerr != nil {
			diags = append(diags, diagnostic(p.rng, "invalid terraform provider version", "invalid provider version: "+cerr.Error()))
		}
		if version == "" {
			diags = append(diags, diagnostic(p.rng, "could not resolve provider version",
				fmt.Sprintf("Could not resolve a version from %s/%s/%s: %s", host, namespace, typ, p.constraint)))
			continue
		}
		resolved[typ] = version
	}
	return resolved, diags, nil
}

func diagnostic(r hcl.Range, summary, detail string) *codegenrpc.Diagnostic {
	pos := func(p hcl.Pos) *codegenrpc.Pos {
		return &codegenrpc.Pos{Line: int64(p.Line), Column: int64(p.Column), Byte: int64(p.Byte)}
	}
	return &codegenrpc.Diagnostic{
		Severity: codegenrpc.DiagnosticSeverity_DIAG_ERROR,
		Summary:  summary,
		Detail:   detail,
		Subject:  &codegenrpc.Range{Filename: r.Filename, Start: pos(r.Start), End: pos(r.End)},
	}
}

var parameterizationVersion = regexp.MustCompile(`parameterization \{\s*version\s*=\s*"([^"]+)"\s*name\s*=\s*"([^"]+)"`)

// recordedVersions are the provider versions a recording's PCL was written with, by package name.
func (r *recording) recordedVersions() map[string]string {
	out := map[string]string{}
	for _, text := range r.pcl {
		for _, m := range parameterizationVersion.FindAllSubmatch(text, -1) {
			out[string(m[2])] = string(m[1])
		}
	}
	return out
}

// versionMismatch says how the versions resolved differ from those the recording was made with; "" when they agree.
func (r *recording) versionMismatch(resolved map[string]string) string {
	var out []string
	for name, want := range r.recordedVersions() {
		if got := resolved[name]; got != want {
			out = append(out, fmt.Sprintf("%s resolved to %q, recorded with %q", name, got, want))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

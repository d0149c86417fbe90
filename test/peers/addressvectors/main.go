// Command addressvectors reads provider source addresses, one per line, on stdin and prints as JSON what
// Terraform v1.16.4's own parser (tfaddr.ParseProviderSource of github.com/hashicorp/terraform-registry-address,
// pinned in go.mod at the version Terraform v1.16.4 requires) makes of each, so src/acquire/address.ts can be
// checked against it (see README.md).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// A vector: the address as given and either the parsed parts or the parser's error.
type vector struct {
	Source    string  `json:"source"`
	Host      *string `json:"host,omitempty"`
	Namespace *string `json:"namespace,omitempty"`
	Type      *string `json:"type,omitempty"`
	Error     *string `json:"error,omitempty"`
}

func main() {
	vectors := []vector{}
	scanner := bufio.NewScanner(os.Stdin)
	for scanner.Scan() {
		source := scanner.Text()
		v := vector{Source: source}
		p, err := tfaddr.ParseProviderSource(source)
		if err != nil {
			msg := err.Error()
			v.Error = &msg
		} else {
			host := p.Hostname.String()
			v.Host, v.Namespace, v.Type = &host, &p.Namespace, &p.Type
		}
		vectors = append(vectors, v)
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := json.NewEncoder(os.Stdout)
	out.SetIndent("", "  ")
	out.SetEscapeHTML(false)
	if err := out.Encode(vectors); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

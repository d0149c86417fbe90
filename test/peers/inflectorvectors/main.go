// Command inflectorvectors reads words, one per line, on stdin and prints as JSON
// what github.com/pulumi/inflector (pinned in go.mod) makes of each, so the
// TypeScript port (src/schema-translate/inflector.ts) can be checked against it
// (see README.md).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/inflector"
)

// A vector: the word and its plural and singular. A null field means the
// inflector panicked on that word (it does for some non-ASCII words).
type vector struct {
	Word     string  `json:"word"`
	Plural   *string `json:"plural"`
	Singular *string `json:"singular"`
}

// guarded runs f, turning a panic into nil so one bad word does not lose the rest.
func guarded(f func(string) string, word string) (out *string) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	s := f(word)
	return &s
}

func main() {
	vectors := []vector{}
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		word := scanner.Text()
		vectors = append(vectors, vector{word, guarded(inflector.Pluralize, word), guarded(inflector.Singularize, word)})
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "inflectorvectors:", err)
		os.Exit(1)
	}
	out := bufio.NewWriter(os.Stdout)
	out.WriteString("[\n")
	for i, v := range vectors {
		b, err := json.Marshal(v)
		if err != nil {
			fmt.Fprintln(os.Stderr, "inflectorvectors:", err)
			os.Exit(1)
		}
		out.Write(b)
		if i < len(vectors)-1 {
			out.WriteString(",")
		}
		out.WriteString("\n")
	}
	out.WriteString("]\n")
	if err := out.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "inflectorvectors:", err)
		os.Exit(1)
	}
}

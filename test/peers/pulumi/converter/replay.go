// The recordings: reading them, finding the one whose input is the project byte for byte, saying how the closest one
// differs when none is, and the diagnostics a recording's log shows.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
)

// recording is one folder of the recordings: a run of Pulumi's converter.
type recording struct {
	name        string
	twins       []string // other recordings of the same input (another --name), whose PCL is the same
	dir         string
	input       map[string][]byte // input/, by slash-separated relative path
	pcl         map[string][]byte // pcl/, likewise
	meta        recordingMeta
	diagnostics []*codegenrpc.Diagnostic
}

// recordingMeta is RECORDING.json, as far as a replay reports it.
type recordingMeta struct {
	Converter string `json:"converter"`
	CLI       string `json:"cli"`
	Command   string `json:"command"`
	Exit      *int   `json:"exit"`
}

// loadRecordings reads every folder of dir that holds input/ (others, and files such as README.md, are not
// recordings), sorted by name.
func loadRecordings(dir string) ([]*recording, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var recs []*recording
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		rdir := filepath.Join(dir, e.Name())
		if st, err := os.Stat(filepath.Join(rdir, "input")); err != nil || !st.IsDir() {
			continue
		}
		rec := &recording{name: e.Name(), dir: rdir}
		if rec.input, err = readTree(filepath.Join(rdir, "input")); err != nil {
			return nil, fmt.Errorf("recording %s: %w", rec.name, err)
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s holds no recording (a folder with input/)", dir)
	}
	return recs, nil
}

// readTree reads every file under dir, keyed by its path relative to dir with slashes; empty folders do not count.
func readTree(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	return files, err
}

// difference is one way a project differs from a recording's input.
type difference struct {
	path  string
	what  string // "missing", "extra" or "differs"
	lines int    // for "differs": how many lines differ, to rank recordings by closeness
	say   string
}

// compare lists how src differs from rec's input, by path.
func compare(src map[string][]byte, rec *recording) []difference {
	paths := map[string]bool{}
	for p := range src {
		paths[p] = true
	}
	for p := range rec.input {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var diffs []difference
	for _, p := range sorted {
		got, inSrc := src[p]
		want, inRec := rec.input[p]
		switch {
		case !inSrc:
			diffs = append(diffs, difference{path: p, what: "missing",
				say: fmt.Sprintf("missing file %s (recording %s's input has it)", p, rec.name)})
		case !inRec:
			diffs = append(diffs, difference{path: p, what: "extra",
				say: fmt.Sprintf("extra file %s (recording %s's input has no such file)", p, rec.name)})
		case !bytes.Equal(got, want):
			n, say := firstLineDifference(got, want)
			diffs = append(diffs, difference{path: p, what: "differs", lines: n,
				say: fmt.Sprintf("%s differs from recording %s's input: %s", p, rec.name, say)})
		}
	}
	return diffs
}

// firstLineDifference says where two different contents first differ, by line (1-based), and counts differing lines.
func firstLineDifference(got, want []byte) (int, string) {
	g := strings.Split(string(got), "\n")
	w := strings.Split(string(want), "\n")
	first, count := -1, 0
	for i := 0; i < max(len(g), len(w)); i++ {
		if i < len(g) && i < len(w) && g[i] == w[i] {
			continue
		}
		count++
		if first < 0 {
			first = i
		}
	}
	line := first + 1
	switch {
	case first >= len(g):
		return count, fmt.Sprintf("the project's file ends before line %d, where the recording's has %s", line, quote(w[first]))
	case first >= len(w):
		return count, fmt.Sprintf("line %d, %s, is past the end of the recording's", line, quote(g[first]))
	}
	return count, fmt.Sprintf("line %d is %s, the recording's is %s", line, quote(g[first]), quote(w[first]))
}

// quote shows a line, shortened where long, with its invisible characters escaped (a changed space must show).
func quote(s string) string {
	const most = 120
	if len(s) > most {
		s = s[:most] + "…"
	}
	return strconv.Quote(s)
}

// pick returns the recording whose input is src; else an error naming the first difference from the closest.
func pick(recs []*recording, src map[string][]byte) (*recording, error) {
	var matches []*recording
	var closest *recording
	var closestDiffs []difference
	score := func(d []difference) (int, int) {
		lines := 0
		for _, x := range d {
			lines += x.lines
		}
		return len(d), lines
	}
	for _, rec := range recs {
		diffs := compare(src, rec)
		if len(diffs) == 0 {
			matches = append(matches, rec)
			continue
		}
		if closest == nil {
			closest, closestDiffs = rec, diffs
			continue
		}
		n, l := score(diffs)
		cn, cl := score(closestDiffs)
		if n < cn || (n == cn && l < cl) {
			closest, closestDiffs = rec, diffs
		}
	}
	if len(matches) == 0 {
		more := ""
		if len(closestDiffs) > 1 {
			more = fmt.Sprintf(" (%d differences in all)", len(closestDiffs))
		}
		return nil, fmt.Errorf("the closest is recording %s: %s%s", closest.name, closestDiffs[0].say, more)
	}
	// Recordings of one input under different --name values must agree, or the replay could not choose.
	for _, rec := range matches {
		if err := rec.load(); err != nil {
			return nil, err
		}
	}
	for _, rec := range matches[1:] {
		if !sameTree(rec.pcl, matches[0].pcl) {
			return nil, fmt.Errorf("recordings %s and %s have this input but different PCL, so a replay cannot choose", matches[0].name, rec.name)
		}
		matches[0].twins = append(matches[0].twins, rec.name)
	}
	return matches[0], nil
}

func sameTree(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for p, x := range a {
		if y, ok := b[p]; !ok || !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}

// load reads the rest of a matched recording: its PCL, RECORDING.json and the diagnostics its log shows.
func (r *recording) load() error {
	var err error
	if r.pcl, err = readTree(filepath.Join(r.dir, "pcl")); err != nil {
		return fmt.Errorf("recording %s: %w", r.name, err)
	}
	if len(r.pcl) == 0 {
		return fmt.Errorf("recording %s has no PCL (pcl/ is empty)", r.name)
	}
	meta, err := os.ReadFile(filepath.Join(r.dir, "RECORDING.json"))
	if err != nil {
		return fmt.Errorf("recording %s: %w", r.name, err)
	}
	if err := json.Unmarshal(meta, &r.meta); err != nil {
		return fmt.Errorf("recording %s: RECORDING.json: %w", r.name, err)
	}
	log, err := os.ReadFile(filepath.Join(r.dir, "converter.log"))
	if err != nil {
		return fmt.Errorf("recording %s: %w", r.name, err)
	}
	if r.diagnostics, err = converterDiagnostics(string(log)); err != nil {
		return fmt.Errorf("recording %s: converter.log: %w", r.name, err)
	}
	return nil
}

// writePCL writes the recording's PCL files into dir.
func (r *recording) writePCL(dir string) error {
	for p, b := range r.pcl {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// The CLI prints the converter's diagnostics between these two lines of its own; after the second come those of
// binding the PCL, which are the CLI's, not the converter's.
const (
	convertingFrom = "Converting from terraform..."
	convertingTo   = "Converting to "
)

// cliLine is what the CLI itself writes in that stretch: which converter binary it started.
var cliLine = regexp.MustCompile(`^warning: using pulumi-converter-terraform from \$PATH at `)

// diagnosticLine is an hcl diagnostic as the CLI prints it: severity, subject ("file:line,col-col",
// "file:line,col-line,col" or "<nil>"), summary and detail.
var (
	diagnosticLine = regexp.MustCompile(`^(warning|error): (.*)$`)
	subjectPrefix  = regexp.MustCompile(`^(\S+?):(\d+),(\d+)-(\d+)(?:,(\d+))?: (.*)$`)
)

// converterDiagnostics reads back the diagnostics the converter returned from what the CLI printed of them. Byte
// offsets are not printed, so they are 0; a line it cannot read is an error rather than a guess.
func converterDiagnostics(log string) ([]*codegenrpc.Diagnostic, error) {
	lines := strings.Split(log, "\n")
	from, to := -1, -1
	for i, l := range lines {
		if from < 0 && l == convertingFrom {
			from = i
		} else if from >= 0 && strings.HasPrefix(l, convertingTo) {
			to = i
			break
		}
	}
	if from < 0 || to < 0 {
		return nil, errors.New("it does not show the converter finishing (no `" + convertingFrom + "` and `" + convertingTo +
			"…` lines); this stand-in replays only conversions that got past the converter")
	}
	var diags []*codegenrpc.Diagnostic
	for i := from + 1; i < to; i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || cliLine.MatchString(l) {
			continue
		}
		m := diagnosticLine.FindStringSubmatch(l)
		if m == nil {
			return nil, fmt.Errorf("line %d, %s, is not a diagnostic this stand-in can replay", i+1, quote(l))
		}
		d := &codegenrpc.Diagnostic{Severity: codegenrpc.DiagnosticSeverity_DIAG_WARNING}
		if m[1] == "error" {
			d.Severity = codegenrpc.DiagnosticSeverity_DIAG_ERROR
		}
		rest := m[2]
		if s, ok := strings.CutPrefix(rest, "<nil>: "); ok {
			rest = s
		} else if sm := subjectPrefix.FindStringSubmatch(rest); sm != nil {
			num := func(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }
			start := &codegenrpc.Pos{Line: num(sm[2]), Column: num(sm[3])}
			end := &codegenrpc.Pos{Line: start.Line, Column: num(sm[4])}
			if sm[5] != "" {
				end = &codegenrpc.Pos{Line: num(sm[4]), Column: num(sm[5])}
			}
			d.Subject = &codegenrpc.Range{Filename: sm[1], Start: start, End: end}
			rest = sm[6]
		}
		d.Summary, d.Detail, _ = strings.Cut(rest, "; ")
		diags = append(diags, d)
	}
	return diags, nil
}

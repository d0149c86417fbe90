// Command engineclient drives a resource provider plugin the way the Pulumi engine does for a create, an update, a
// refresh and a delete: Check, Create, [Check, Diff, Update], [Read], Delete, over the engine's own gRPC stack (grpc-go
// and the pulumirpc stubs of the pinned SDK).
// The per-operation benchmark uses it so that the client side of the engine hop costs what it costs in Pulumi, not
// what a Node.js gRPC client costs. The plugin must already be parameterized and configured (the benchmark does that).
//
// Prints one JSON object: {"check": [ms...], "create": [ms...], "update": [ms...], "read": [ms...], "delete": [ms...]},
// one entry per cycle; create includes its Check and update its Check and Diff, as the steps of `pulumi up` do; update
// is there with -update and read with -read.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

func main() {
	port := flag.Int("port", 0, "the plugin's port")
	token := flag.String("token", "", "resource type token, e.g. random:index/id:Id")
	inputs := flag.String("inputs", "{}", `inputs as JSON; "%d" in a string value becomes the cycle number`)
	n := flag.Int("n", 1000, "create+delete cycles")
	update := flag.String("update", "", `with new inputs as JSON (like -inputs), each cycle also updates the resource to them: Check, Diff, Update`)
	read := flag.Bool("read", false, "each cycle also reads the resource back (Read, as `pulumi refresh` does) before deleting it")
	ping := flag.Bool("ping", false, `instead of cycles, time n GetPluginInfo calls (the bare cost of a call): {"ping": [ms...]}`)
	flag.Parse()
	if *port == 0 || (*token == "" && !*ping) {
		fail(fmt.Errorf("-port and -token are required"))
	}
	// The engine dials its plugins like this: plaintext on loopback, with rpcutil.GrpcChannelOptions.
	conn, err := grpc.NewClient(fmt.Sprintf("127.0.0.1:%d", *port), grpc.WithTransportCredentials(insecure.NewCredentials()), rpcutil.GrpcChannelOptions())
	if err != nil {
		fail(err)
	}
	defer conn.Close()
	client := pulumirpc.NewResourceProviderClient(conn)
	ctx := context.Background()
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

	if *ping {
		var times []float64
		for i := 0; i < *n; i++ {
			t := time.Now()
			if _, err := client.GetPluginInfo(ctx, &emptypb.Empty{}); err != nil {
				fail(fmt.Errorf("GetPluginInfo: %w", err))
			}
			times = append(times, ms(time.Since(t)))
		}
		if err := json.NewEncoder(os.Stdout).Encode(map[string][]float64{"ping": times}); err != nil {
			fail(err)
		}
		return
	}

	var template map[string]any
	if err := json.Unmarshal([]byte(*inputs), &template); err != nil {
		fail(fmt.Errorf("-inputs: %w", err))
	}
	var updateTemplate map[string]any
	if *update != "" {
		if err := json.Unmarshal([]byte(*update), &updateTemplate); err != nil {
			fail(fmt.Errorf("-update: %w", err))
		}
	}
	out := struct {
		Check  []float64 `json:"check"`
		Create []float64 `json:"create"`
		Update []float64 `json:"update,omitempty"`
		Read   []float64 `json:"read,omitempty"`
		Delete []float64 `json:"delete"`
	}{}
	for i := 0; i < *n; i++ {
		name := fmt.Sprintf("r%d", i)
		urn := fmt.Sprintf("urn:pulumi:bench::bench::%s::%s", *token, name)
		news, err := structpb.NewStruct(fill(template, i))
		if err != nil {
			fail(err)
		}
		olds, _ := structpb.NewStruct(nil)

		t := time.Now()
		checked, err := client.Check(ctx, &pulumirpc.CheckRequest{Urn: urn, Type: *token, Name: name, Olds: olds, News: news, RandomSeed: []byte(name)})
		if err != nil {
			fail(fmt.Errorf("Check %s: %w", name, err))
		}
		if len(checked.Failures) > 0 {
			fail(fmt.Errorf("Check %s failed: %v", name, checked.Failures))
		}
		out.Check = append(out.Check, ms(time.Since(t)))
		created, err := client.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Type: *token, Name: name, Properties: checked.Inputs})
		if err != nil {
			fail(fmt.Errorf("Create %s: %w", name, err))
		}
		out.Create = append(out.Create, ms(time.Since(t)))
		id, inputs, state := created.Id, checked.Inputs, created.Properties

		if updateTemplate != nil {
			news, err := structpb.NewStruct(fill(updateTemplate, i))
			if err != nil {
				fail(err)
			}
			t = time.Now()
			// The engine's update step: Check against the old inputs, Diff against the old state, then Update.
			rechecked, err := client.Check(ctx, &pulumirpc.CheckRequest{Urn: urn, Type: *token, Name: name, Olds: inputs, News: news, RandomSeed: []byte(name)})
			if err != nil {
				fail(fmt.Errorf("Check (update) %s: %w", name, err))
			}
			if len(rechecked.Failures) > 0 {
				fail(fmt.Errorf("Check (update) %s failed: %v", name, rechecked.Failures))
			}
			diff, err := client.Diff(ctx, &pulumirpc.DiffRequest{Urn: urn, Type: *token, Name: name, Id: id, Olds: state, News: rechecked.Inputs, OldInputs: inputs})
			if err != nil {
				fail(fmt.Errorf("Diff %s: %w", name, err))
			}
			if diff.Changes != pulumirpc.DiffResponse_DIFF_SOME || len(diff.Replaces) > 0 {
				fail(fmt.Errorf("Diff %s: want an in-place update, got changes=%v replaces=%v", name, diff.Changes, diff.Replaces))
			}
			updated, err := client.Update(ctx, &pulumirpc.UpdateRequest{Urn: urn, Type: *token, Name: name, Id: id, Olds: state, News: rechecked.Inputs, OldInputs: inputs})
			if err != nil {
				fail(fmt.Errorf("Update %s: %w", name, err))
			}
			out.Update = append(out.Update, ms(time.Since(t)))
			inputs, state = rechecked.Inputs, updated.Properties
		}

		if *read {
			t = time.Now()
			got, err := client.Read(ctx, &pulumirpc.ReadRequest{Urn: urn, Type: *token, Name: name, Id: id, Properties: state, Inputs: inputs})
			if err != nil {
				fail(fmt.Errorf("Read %s: %w", name, err))
			}
			if got.Id == "" {
				fail(fmt.Errorf("Read %s: the resource is gone", name))
			}
			out.Read = append(out.Read, ms(time.Since(t)))
			state = got.Properties
		}

		t = time.Now()
		if _, err := client.Delete(ctx, &pulumirpc.DeleteRequest{Urn: urn, Type: *token, Name: name, Id: id, Properties: state, OldInputs: inputs}); err != nil {
			fail(fmt.Errorf("Delete %s: %w", name, err))
		}
		out.Delete = append(out.Delete, ms(time.Since(t)))
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail(err)
	}
}

// fill copies the template, replacing "%d" in string values with the cycle number.
func fill(template map[string]any, i int) map[string]any {
	m := make(map[string]any, len(template))
	for k, v := range template {
		if s, ok := v.(string); ok {
			v = strings.ReplaceAll(s, "%d", fmt.Sprint(i))
		}
		m[k] = v
	}
	return m
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "engineclient:", err)
	os.Exit(1)
}

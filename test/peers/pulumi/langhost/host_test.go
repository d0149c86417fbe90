// Tests of what every language shares: the executable's name picks the language, the engine's flags are read, and a
// call a language does not serve says so by name.
package main

import (
	"context"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

func TestLanguageFromExecutableName(t *testing.T) {
	for name, want := range map[string]string{
		"pulumi-language-nodejs": "Node.js", "pulumi-language-python": "Python", "pulumi-language-go": "Go",
		"pulumi-language-go.exe": "Go",
	} {
		newServer, err := languageOf(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h := &host{}
		newServer(h)
		if h.language != want {
			t.Errorf("%s serves %q, want %q", name, h.language, want)
		}
	}
	if _, err := languageOf("pulumi-language-dotnet"); err == nil || !strings.Contains(err.Error(), "pulumi-language-nodejs") {
		t.Errorf("an unknown name is refused naming the names it answers to, got %v", err)
	}
}

func TestParams(t *testing.T) {
	p := parseParams([]string{"-root=/work/proj", "-typescript=true", "127.0.0.1:1234"})
	if p.root != "/work/proj" || p.engineAddress != "127.0.0.1:1234" {
		t.Errorf("got %+v", p)
	}
}

func TestUnservedCallsNameTheStandIn(t *testing.T) {
	for _, name := range []string{"pulumi-language-nodejs", "pulumi-language-python", "pulumi-language-go"} {
		newServer, _ := languageOf(name)
		h := &host{}
		srv := newServer(h)
		_, err := srv.RuntimeOptionsPrompts(context.Background(), &pulumirpc.RuntimeOptionsRequest{})
		st, _ := status.FromError(err)
		if st.Code() != codes.Unimplemented || st.Message() != "RuntimeOptionsPrompts is not supported by this stand-in for Pulumi's "+h.language+" host" {
			t.Errorf("%s: RuntimeOptionsPrompts answered %v", name, err)
		}
		info, err := srv.GetPluginInfo(context.Background(), &emptypb.Empty{})
		if err != nil || info.GetVersion() != version {
			t.Errorf("%s: GetPluginInfo answered %v, %v", name, info, err)
		}
	}
}

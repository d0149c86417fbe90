// The tfplugin6 Provider service over dynamic messages: each unary RPC's request is turned into JSON (protojson, the
// proto's own field names) for the handlers in resource.go, and their JSON answer into the response message.
package main

import (
	"context"
	"encoding/json"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	_ "google.golang.org/protobuf/types/known/timestamppb" // tfplugin6.proto imports google/protobuf/timestamp.proto
)

// register adds the Provider service to s: every unary method of the descriptor, answered by handle (streams are left
// unimplemented; the resource needs none).
func register(s *grpc.Server) error {
	var file descriptorpb.FileDescriptorProto
	if err := proto.Unmarshal([]byte(tfplugin6Descriptor), &file); err != nil {
		return err
	}
	fd, err := protodesc.NewFile(&file, protoregistry.GlobalFiles)
	if err != nil {
		return err
	}
	svc := fd.Services().ByName("Provider")
	if svc == nil {
		return fmt.Errorf("the descriptor has no Provider service")
	}
	desc := grpc.ServiceDesc{ServiceName: string(svc.FullName()), HandlerType: (*any)(nil), Metadata: fd.Path()}
	for i := 0; i < svc.Methods().Len(); i++ {
		m := svc.Methods().Get(i)
		if m.IsStreamingClient() || m.IsStreamingServer() {
			continue
		}
		desc.Methods = append(desc.Methods, grpc.MethodDesc{MethodName: string(m.Name()), Handler: unary(m)})
	}
	s.RegisterService(&desc, &provider{})
	return nil
}

func unary(m protoreflect.MethodDescriptor) func(any, context.Context, func(any) error, grpc.UnaryServerInterceptor) (any, error) {
	name := string(m.Name())
	return func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		in := dynamicpb.NewMessage(m.Input())
		if err := dec(in); err != nil {
			return nil, err
		}
		call := func(ctx context.Context, req any) (any, error) {
			reqJSON, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(req.(proto.Message))
			if err != nil {
				return nil, err
			}
			answer, err := srv.(*provider).handle(name, reqJSON)
			if err != nil {
				return nil, err
			}
			respJSON, err := json.Marshal(answer)
			if err != nil {
				return nil, err
			}
			out := dynamicpb.NewMessage(m.Output())
			if err := protojson.Unmarshal(respJSON, out); err != nil {
				return nil, fmt.Errorf("%s: answer %s does not fit the response: %w", name, respJSON, err)
			}
			return out, nil
		}
		if interceptor == nil {
			return call(ctx, in)
		}
		return interceptor(ctx, in, &grpc.UnaryServerInfo{Server: srv, FullMethod: "/" + string(m.Parent().FullName()) + "/" + name}, call)
	}
}

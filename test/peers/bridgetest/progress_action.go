// Actions bridgetest_progress (streams progress events, takes a write-only token) and bridgetest_refuse (fails with a
// diagnostic), each appending the calls it receives to record_file so a test can compare what two callers sent.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ action.ActionWithValidateConfig = stepsAction{}
	_ action.ActionWithModifyPlan     = stepsAction{}
)

type progressModel struct {
	Steps      types.Int64  `tfsdk:"steps"`
	Message    types.String `tfsdk:"message"`
	Token      types.String `tfsdk:"token"`
	RecordFile types.String `tfsdk:"record_file"`
}

// recordCall appends one JSON line for an RPC: the action, the RPC and the configuration, with the write-only token
// reduced to whether it was set, so the record itself never holds it.
func recordCall(ctx context.Context, config tfsdk.Config, actionType, rpc string) {
	var m progressModel
	if config.Get(ctx, &m).HasError() || m.RecordFile.IsNull() || m.RecordFile.IsUnknown() {
		return
	}
	line, _ := json.Marshal(map[string]any{
		"action":    actionType,
		"rpc":       rpc,
		"steps":     m.Steps.ValueInt64(),
		"message":   m.Message.ValueString(),
		"token_set": !m.Token.IsNull() && m.Token.ValueString() != "",
	})
	f, err := os.OpenFile(m.RecordFile.ValueString(), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(line, '\n'))
}

func progressSchema(description string) schema.Schema {
	return schema.Schema{
		Description: description,
		Attributes: map[string]schema.Attribute{
			"steps":       schema.Int64Attribute{Required: true, Description: "How many progress events to send."},
			"message":     schema.StringAttribute{Optional: true, Description: "What each progress event says before its step number; `step` when unset."},
			"token":       schema.StringAttribute{Optional: true, WriteOnly: true, Description: "A write-only credential: only whether it was set is recorded."},
			"record_file": schema.StringAttribute{Optional: true, Description: "A file each call appends one JSON line to."},
		},
	}
}

// sendSteps sends `steps` progress events, `<message> <n>/<steps>`.
func sendSteps(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m progressModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	msg := m.Message.ValueString()
	if msg == "" {
		msg = "step"
	}
	for i := int64(1); i <= m.Steps.ValueInt64(); i++ {
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("%s %d/%d", msg, i, m.Steps.ValueInt64())})
		if i == 1 {
			crashAt("action") // mid-stream: one progress event sent, no completion
		}
	}
}

// stepsAction is both actions: `fail` makes it bridgetest_refuse, which fails after its progress events.
type stepsAction struct {
	suffix string
	fail   bool
}

func (a stepsAction) typeName() string { return "bridgetest_" + a.suffix }

func (a stepsAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + a.suffix
}

func (a stepsAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	if a.fail {
		resp.Schema = progressSchema("Sends `steps` progress events, then fails with an error diagnostic.")
	} else {
		resp.Schema = progressSchema("Sends `steps` progress events, then completes.")
	}
}

func (a stepsAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	recordCall(ctx, req.Config, a.typeName(), "ValidateActionConfig")
	if a.fail {
		return
	}
	var steps types.Int64
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathRoot("steps"), &steps)...)
	if !steps.IsNull() && !steps.IsUnknown() && steps.ValueInt64() < 0 {
		resp.Diagnostics.AddAttributeError(pathRoot("steps"), "Invalid steps", fmt.Sprintf("steps must be 0 or more, got %d", steps.ValueInt64()))
	}
}

func (a stepsAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, _ *action.ModifyPlanResponse) {
	recordCall(ctx, req.Config, a.typeName(), "PlanAction")
}

func (a stepsAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	recordCall(ctx, req.Config, a.typeName(), "InvokeAction")
	sendSteps(ctx, req, resp)
	if a.fail {
		resp.Diagnostics.AddError("Refused", "bridgetest_refuse always fails after its progress events")
	}
}

package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// readStored finds what a Read is about: the stored object of the state's id. It returns false when the Read is
// over already: on an error (added to the diagnostics) or when the file is gone, in which case the resource has been
// removed from state, as Terraform expects of a vanished object.
func readStored(ctx context.Context, data *providerData, req resource.ReadRequest, resp *resource.ReadResponse) (storedObject, bool) {
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	dir := stateDir(data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return storedObject{}, false
	}
	obj, found, err := readObject(dir, id.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot read object", err.Error())
		return storedObject{}, false
	}
	if !found {
		tflog.Info(ctx, "bridgetest: object file is gone; removing from state", map[string]any{"id": id.ValueString()})
		resp.State.RemoveResource(ctx)
		return storedObject{}, false
	}
	return obj, true
}

// deleteStored deletes the stored object of the state's id, the whole of Delete for a resource with nothing else to undo.
func deleteStored(ctx context.Context, data *providerData, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	dir := stateDir(data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := deleteObject(dir, id.ValueString()); err != nil {
		resp.Diagnostics.AddError("bridgetest: cannot delete object", err.Error())
	}
}

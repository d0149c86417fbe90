# Lists, for the stand-in Python host (python.go), the Pulumi packages of the Python environment it runs in, as one
# JSON array on standard output: each installed distribution whose name starts with "pulumi-" or whose top-level
# package ships a pulumi-plugin.json, with that file's contents (or null).
import importlib.metadata
import importlib.util
import json
import os
import re
import sys


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def plugin_json(dist, name):
    """The pulumi-plugin.json beside the distribution's top-level package, read from its files when it lists them
    (a regular install), else found through the import system (an editable install lists no package files)."""
    module = name.replace("-", "_")
    for f in dist.files or []:
        parts = f.parts
        if len(parts) == 2 and parts[1] == "pulumi-plugin.json" and parts[0].replace("-", "_").lower() == module.lower():
            path = dist.locate_file(f)
            if os.path.isfile(path):
                return path
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(str(location), "pulumi-plugin.json")
        if os.path.isfile(path):
            return path
    return None


def main():
    seen = set()
    found = []
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if not name or canonical(name) in seen:
            continue
        seen.add(canonical(name))
        path = plugin_json(dist, name)
        plugin = None
        if path is not None:
            with open(path, encoding="utf-8") as f:
                plugin = json.load(f)
        if plugin is None and not canonical(name).startswith("pulumi-"):
            continue
        found.append({"name": canonical(name), "version": dist.version, "plugin": plugin})
    json.dump(found, sys.stdout)


if __name__ == "__main__":
    main()

# Runs one Pulumi Python program for the stand-in Python host (python.go): usage `python python_runner.py PROGRAM [ARGS...]`.
#
# The host hands over what the engine said (monitor, engine, project, stack, organization, dry run, parallelism, root
# directory, configuration and its secret keys) as the PULUMI_* variables the host sets for every program, so this
# script takes only the program and its arguments on the command line. It configures the `pulumi` package's runtime
# from them, then runs the program as `python PROGRAM` would, inside the stack resource.
import asyncio
import inspect
import logging
import os
import runpy
import signal
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor

# The host treats this exit code as "the error was already reported to the engine", and adds no message of its own.
REPORTED = 32
# The exit code after an interrupt, as a shell reports a process ended by SIGINT.
INTERRUPTED = 130


def stop_on_interrupt(signum, frame):
    """The host interrupts the program only when the engine cancels it (or gives up on the run): stop at once. A
    KeyboardInterrupt raised inside asyncio and gRPC would print tracebacks of the SDK's internals instead."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a write the signal interrupted; what is lost was said after the cancel
            pass
    os._exit(INTERRUPTED)


def settings_from_env(pulumi):
    """The runtime's Settings, built from the host's PULUMI_* variables."""
    env = os.environ.get
    parallel = env("PULUMI_PARALLEL", "")
    wanted = {
        "monitor": env("PULUMI_MONITOR") or None,
        "engine": env("PULUMI_ENGINE") or None,
        "project": env("PULUMI_PROJECT") or None,
        "stack": env("PULUMI_STACK") or None,
        "organization": env("PULUMI_ORGANIZATION") or None,
        "root_directory": env("PULUMI_ROOT_DIRECTORY") or None,
        "dry_run": env("PULUMI_DRY_RUN") == "true",
        "parallel": int(parallel) if parallel.lstrip("-").isdigit() else None,
    }
    # Older `pulumi` releases take fewer settings (organization and root_directory came later); pass what this one takes.
    accepted = inspect.signature(pulumi.runtime.Settings.__init__).parameters
    return pulumi.runtime.Settings(**{k: v for k, v in wanted.items() if k in accepted})


def load_config(pulumi):
    config = pulumi.runtime.get_config_env()
    if hasattr(pulumi.runtime, "set_all_config"):
        secret_keys = pulumi.runtime.get_config_secret_keys_env() if hasattr(pulumi.runtime, "get_config_secret_keys_env") else None
        pulumi.runtime.set_all_config(config, secret_keys)
    else:
        for key, value in config.items():
            pulumi.runtime.set_config(key, value)


def is_users(filename, program_dir):
    """Whether a traceback frame's file is the user's code: inside the program's folder, but neither this script, a
    frozen module (runpy's are named "<frozen ...>") nor an installed package (the project's virtualenv is often
    inside the project)."""
    if filename.startswith("<"):
        return False
    path = os.path.abspath(filename)
    if not path.startswith(os.path.join(program_dir, "")) or path == os.path.abspath(__file__):
        return False
    if "site-packages" in path.split(os.sep):
        return False
    envs = (sys.prefix, sys.exec_prefix, sys.base_prefix)
    return not any(path.startswith(os.path.join(os.path.abspath(e), "")) for e in envs)


def user_traceback(exc, program_dir):
    """The exception's traceback from the first frame of the user's own code on: the runner's, runpy's and the SDK's
    frames above it say nothing to the user."""
    start = exc.__traceback__
    while start is not None and not is_users(start.tb_frame.f_code.co_filename, program_dir):
        start = start.tb_next
    return "".join(traceback.format_exception(type(exc), exc, start if start is not None else exc.__traceback__))


def main(argv):
    if not argv:
        print("usage: python_runner.py PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    program = os.path.abspath(argv[0])
    signal.signal(signal.SIGINT, stop_on_interrupt)

    try:
        import pulumi
        import pulumi.runtime
    except ImportError:
        print(traceback.format_exc(), file=sys.stderr)
        print(
            "The `pulumi` package is not installed in this Python environment: run `pulumi install`, or "
            "`pip install -r requirements.txt` inside the project's virtualenv.",
            file=sys.stderr,
        )
        return 1

    load_config(pulumi)
    settings = settings_from_env(pulumi)
    pulumi.runtime.configure(settings)

    program_dir = program if os.path.isdir(program) else os.path.dirname(program)
    if os.path.isdir(program) and not os.path.isfile(os.path.join(program, "__main__.py")):
        pulumi.log.error(f"unable to find main python program `__main__.py` in `{program}`")
        return REPORTED

    # As `python PROGRAM` has it: the program's arguments, and its own folder (not this script's) first on sys.path.
    sys.argv = [argv[0]] + argv[1:]
    sys.path[0] = program_dir

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    # Blocking calls (plain invokes, applies) run on the loop's default executor: size it by the engine's parallelism
    # so that they are not throttled below what the engine allows.
    executor = None
    if settings.parallel is not None:
        executor = ThreadPoolExecutor(max_workers=max(settings.parallel, 1) * 4)
        loop.set_default_executor(executor)
    # A failed program leaves futures nobody awaited; asyncio's complaints about them are noise to the user.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)

    code = REPORTED
    try:
        loop.run_until_complete(pulumi.runtime.run_in_stack(lambda: runpy.run_path(program, run_name="__main__")))
        code = 0
    except pulumi.RunError as e:
        pulumi.log.error(str(e))
    except Exception as e:  # anything the program raised: reported once, through the engine
        pulumi.log.error("Program failed with an unhandled exception:\n" + user_traceback(e, program_dir))
    finally:
        if executor is not None:
            executor.shutdown(wait=True)
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

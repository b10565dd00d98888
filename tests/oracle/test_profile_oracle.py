"""`etviz info RUN.etdp` against an independent decode: every corpus ETDump read by Debian's flatc
with the ETDump schema (size prefix and all), its runs, events, debug events, allocations and
time spans counted here, compared with `etviz info --json` (docs/cli.md, "info of a profile").
"""

import json
import os
import pathlib
import subprocess

import pytest

CORPUS = pathlib.Path(os.environ.get("ETVIZ_CORPUS_DIR", ""))
BIN = os.environ.get("ETVIZ_BIN", "")
FLATC = os.environ.get("ETVIZ_FLATC", "flatc")
SCHEMAS = pathlib.Path(os.environ.get("ETVIZ_SCHEMA_DIR", ""))

PROFILES = sorted((CORPUS / "etdp").glob("*")) if CORPUS.is_dir() else []


def flatc_etdump(path, out_dir):
    data = path.read_bytes()
    # The runtime writes a u32 size prefix (the identifier then sits at bytes 8..12).
    prefixed = data[8:12] == b"ED00"
    args = [FLATC, "--json", "--strict-json", "--raw-binary", "--defaults-json", "-o", str(out_dir)]
    if prefixed:
        args.append("--size-prefixed")
    subprocess.run(args + [str(SCHEMAS / "etdump.fbs"), "--", str(path)], check=True, capture_output=True)
    return json.loads((out_dir / (path.stem + ".json")).read_text()), prefixed


def expected_runs(decoded):
    runs = []
    for run in decoded.get("run_data", []):
        r = {"name": run.get("name", ""), "profile_events": 0, "instruction_events": 0, "delegate_events": 0,
             "framework_events": 0, "debug_events": 0, "logged_outputs": 0,
             "allocators": len(run.get("allocators", [])), "allocations": 0, "allocated_bytes": 0}
        starts, ends = [], []
        for event in run.get("events", []):
            if "profile_event" in event:
                p = event["profile_event"]
                r["profile_events"] += 1
                if p.get("chain_index", 0) < 0:
                    r["framework_events"] += 1
                elif p.get("delegate_debug_id_int", -1) != -1 or p.get("delegate_debug_id_str"):
                    r["delegate_events"] += 1
                else:
                    r["instruction_events"] += 1
                if int(p.get("end_time", 0)) >= int(p.get("start_time", 0)):
                    starts.append(int(p.get("start_time", 0)))
                    ends.append(int(p.get("end_time", 0)))
            if "debug_event" in event:
                r["debug_events"] += 1
                out = (event["debug_event"].get("debug_entry") or {}).get("output") or {}
                r["logged_outputs"] += 1 if out.get("bool_val") else 0
            if "allocation_event" in event:
                r["allocations"] += 1
                r["allocated_bytes"] += int(event["allocation_event"].get("allocation_size", 0))
        r["span"] = max(ends) - min(starts) if starts else 0
        if run.get("bundled_input_index", -1) >= 0:
            r["bundled_input"] = run["bundled_input_index"]
        runs.append(r)
    return runs


@pytest.mark.skipif(not PROFILES, reason="no corpus ETDumps")
@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.name)
def test_info_of_a_profile_counts_what_flatc_reads(path, tmp_path):
    decoded, prefixed = flatc_etdump(path, tmp_path)
    r = subprocess.run([BIN, "info", str(path), "--json", "-q"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    shown = json.loads(r.stdout)
    assert shown["format"] == "etdump"
    assert shown["schema_version"] == decoded.get("version", 0)
    assert shown["size_prefixed"] == prefixed
    expected = expected_runs(decoded)
    assert len(shown["runs"]) == len(expected)
    assert sum(e["profile_events"] for e in expected) > 0, "the corpus profile has timed events"
    for got, want in zip(shown["runs"], expected):
        for key, value in want.items():
            assert got[key] == value, f"{path.name} run {want['name']}: {key} {got[key]} != {value}"
    # The text form names the same runs and totals.
    text = subprocess.run([BIN, "info", str(path), "-q"], capture_output=True, text=True)
    assert text.returncode == 0, text.stderr
    total = sum(e["profile_events"] for e in expected)
    assert f"{total:,} profile events" in text.stdout
    for want in expected:
        assert want["name"] in text.stdout


GEN = os.environ.get("ETVIZ_GEN", "")


# Generated profiles reach what the corpus one does not: delegate events with int and string
# ids, allocations, logged outputs, a bundled input, with and without the size prefix.
@pytest.mark.parametrize("extra", [
    ["--runs", "3", "--delegate-events", "2", "--allocations"],
    ["--runs", "2", "--delegate-events", "1", "--string-ids", "--plain", "--bundled-input-index", "1"],
    ["--runs", "1", "--debug-buffer", "{dir}/debug.bin", "--outputs"],
], ids=["allocations", "plain-string-ids", "debug-outputs"])
def test_info_of_generated_profiles_counts_what_flatc_reads(extra, tmp_path):
    pte = tmp_path / "model.pte"
    subprocess.run([GEN, "program", "-o", str(pte), "--blocks", "2", "--delegates"], check=True, capture_output=True)
    etdp = tmp_path / "run.etdp"
    args = [a.replace("{dir}", str(tmp_path)) for a in extra]
    subprocess.run([GEN, "etdump", "--program", str(pte), "-o", str(etdp)] + args, check=True, capture_output=True)
    test_info_of_a_profile_counts_what_flatc_reads(etdp, tmp_path)

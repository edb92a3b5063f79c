#!/usr/bin/python3
"""api_coverage.py - how much of a CUDA library's C API a trnsci library exports, after the porting rule.

Developer tool, not a build step: it reads NVIDIA's headers (CUDA toolkit, e.g. /usr/local/cuda/include),
which the project never needs. It exits 0 with a notice when the headers are absent.

  tools/api_coverage.py --lib build/trnblas/libtrnblas.so --from cublas --to trnblas \\
      --header /usr/local/cuda/include/cublas_api.h --macros /usr/local/cuda/include/cublas_v2.h

Other libraries (C = /usr/local/cuda/include):
  --lib build/trnfft/libtrnfft.so --from cufft --to trnfft --header $C/cufft.h --header $C/cufftXt.h
  --lib build/trnrand/libtrnrand.so --from curand --to trnrand --header $C/curand.h
  --lib build/trnsolver/libtrnsolver.so --from cusolver --to trnsolver --header $C/cusolverDn.h
  --lib build/trnsparse/libtrnsparse.so --from cusparse --to trnsparse --header $C/cusparse.h --skip-deprecated
  (cuTENSOR ships outside the toolkit: pass its cutensor.h and cutensor/types.h.)

Counts:
  * every function PROTOTYPE (a declaration ending in ';', not an inline body) in the --header files
    whose name starts with the --from prefix;
  * with --macros FILE, also every `#define fromName fromName_v2`-style alias name in FILE (cuBLAS and
    cuSPARSE export both spellings: the unsuffixed name a program writes and the _v2 symbol);
  * with --fold-aliases, an alias and the name it stands for count as ONE function, covered when either
    spelling is exported (the measure of "functions a program can call"; without it both spellings count,
    the measure of "symbols libcublas exports");
  * with --skip-deprecated, not the prototypes declared with a *DEPRECATED* macro (cuSPARSE's
    CUSPARSE_DEPRECATED / CUSPARSE_DEPRECATED_REPLACE_WITH: 224 of cusparse.h's 460 remain);
  * minus the names listed in --exclude FILE (one name or /regex/ per line, '#' starts the reason),
    reported separately with their reasons.
A name is covered when the library's dynamic symbol table (nm -D --defined-only) holds it after the
prefix substitution (--from -> --to at the start of the name).

Prints `covered/total (pct%)`, then the missing names (one a line), then the excluded ones.
--min PCT makes the exit status 1 when coverage is below PCT (for scripts); --quiet prints only the
summary line.
"""
import argparse
import os
import re
import subprocess
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def join_continuations(text):
    return text.replace("\\\n", " ")


def prototypes(path, prefix, skip_deprecated=False):
    """Names of functions declared (prototype, ';'-terminated) in a header, with the given prefix
    (skip_deprecated: not those whose declaration carries a *DEPRECATED* attribute macro)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = join_continuations(strip_comments(f.read()))
    # Drop preprocessor lines; keep the code of every branch (a header's declarations are the API).
    code = "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))
    names = set()
    for m in re.finditer(r"\b(" + re.escape(prefix) + r"\w*)\s*\(", code):
        # Skip the name if it is a parameter/type use: the token before it must be a type-ish word or '*'.
        before = code[:m.start()].rstrip()
        if not before or before[-1] in "(,=":
            continue
        # Find the matching ')' of the parameter list, then what follows it.
        depth, i = 0, m.end() - 1
        while i < len(code):
            c = code[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        rest = code[i + 1:].lstrip()
        decl = code[max(code.rfind(";", 0, m.start()), code.rfind("}", 0, m.start()), code.rfind("{", 0, m.start())) + 1:m.start()]
        if rest.startswith(";") and not (skip_deprecated and "DEPRECATED" in decl):
            names.add(m.group(1))
    return names


def macro_aliases(path, prefix):
    """Alias names `#define prefixX prefixY` (object-like macros naming another prefixed identifier)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = join_continuations(strip_comments(f.read()))
    pat = re.compile(r"^\s*#\s*define\s+(" + re.escape(prefix) + r"\w*)\s+(" + re.escape(prefix) + r"\w*)\s*$")
    return {m.group(1): m.group(2) for line in text.split("\n") for m in [pat.match(line)] if m}


def read_excludes(path):
    """[(name-or-regex, reason)] from an exclusion file."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            body, _, reason = line.partition("#")
            body = body.strip()
            if body:
                out.append((body, reason.strip()))
    return out


def excluded_reason(name, excludes):
    for pat, reason in excludes:
        if pat.startswith("/") and pat.endswith("/") and len(pat) > 1:
            if re.fullmatch(pat[1:-1], name):
                return reason
        elif pat == name:
            return reason
    return None


def exported(lib):
    res = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True)
    syms = set()
    for line in res.stdout.split("\n"):
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "TtWwiV":
            syms.add(parts[2].split("@")[0])
    return syms


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True, action="append", help="our shared library (repeatable)")
    ap.add_argument("--from", dest="src", required=True, help="CUDA prefix, e.g. cublas")
    ap.add_argument("--to", dest="dst", required=True, help="trnsci prefix, e.g. trnblas")
    ap.add_argument("--header", required=True, action="append", help="CUDA header with prototypes (repeatable)")
    ap.add_argument("--macros", action="append", default=[], help="header whose #define aliases count too")
    ap.add_argument("--fold-aliases", action="store_true", help="count an alias and its target once")
    ap.add_argument("--exclude", help="file of names or /regexes/ not counted, '# reason' after each")
    ap.add_argument("--skip-deprecated", action="store_true",
                    help="do not count prototypes declared with a *DEPRECATED* attribute macro")
    ap.add_argument("--min", type=float, help="exit 1 when coverage (percent) is below this")
    ap.add_argument("--quiet", action="store_true", help="print only the summary line")
    args = ap.parse_args()

    missing_headers = [h for h in args.header + args.macros if not os.path.exists(h)]
    if missing_headers:
        print("api_coverage: CUDA headers not found (%s); nothing to measure" % ", ".join(missing_headers))
        return 0

    names = set()
    for h in args.header:
        names |= prototypes(h, args.src, args.skip_deprecated)
    aliases = {}
    for h in args.macros:
        aliases.update(macro_aliases(h, args.src))
    names |= set(aliases)
    # spellings[n]: the names whose export covers n (n itself; with --fold-aliases also its alias target).
    spellings = {n: {n} for n in names}
    if args.fold_aliases:
        for alias, target in aliases.items():
            if target in names:
                names.discard(target)
                spellings[alias] = {alias, target}
    excludes = read_excludes(args.exclude) if args.exclude else []
    excluded = {n: r for n in names for r in [excluded_reason(n, excludes)] if r is not None}
    counted = sorted(names - set(excluded))

    syms = set()
    for lib in args.lib:
        syms |= exported(lib)
    port = lambda n: args.dst + n[len(args.src):]
    missing = [n for n in counted if not any(port(s) in syms for s in spellings[n])]
    covered = len(counted) - len(missing)
    pct = 100.0 * covered / len(counted) if counted else 100.0
    print("%s -> %s: %d/%d (%.1f%%) covered, %d excluded" % (args.src, args.dst, covered, len(counted), pct,
                                                           len(excluded)))
    if not args.quiet:
        if missing:
            print("missing (%d):" % len(missing))
            for n in missing:
                print("  " + n)
        if excluded:
            print("excluded (%d):" % len(excluded))
            for n in sorted(excluded):
                print("  %-40s %s" % (n, excluded[n]))
    if args.min is not None and pct < args.min:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What a portable FMU tells its user about itself and how to check it: the files
of the FMI layered standard for related files (FMI-LS-REF 1.0.0-alpha.1, not
yet final) and a page of documentation, all made from the block's declarations
(its ports, parameters, ``reference``, ``validation`` and
``reference_experiment``), so that they cannot drift from the FMU.

In ``extra/org.fmi-standard.fmi-ls-ref/``:

* ``fmi-ls-manifest.xml``, the manifest: one ``Related`` element per file
  below, with its MIME type, role, description and SHA3-256 checksum;
* ``reference.ssv`` (role ``parameter``): the values of the reference
  experiment, every parameter at its documented default and the block's
  ``reference_experiment`` values (inputs held constant among them), an SSP 1.0
  parameter set;
* ``reference.csv`` (role ``result``): the Real outputs of the reference
  experiment, the FMU's ``DefaultExperiment`` stepped at its step size with
  ``reference.ssv`` applied, after initialization and after each step that is a
  multiple of ``every`` (by name; each value as Python's ``repr``, which reads
  back to the same bits);
* one ``.ssv`` per parameter set of the project's examples that use the block
  (role ``parameter``), as the caller gives them.

In ``documentation/``: ``index.html``, the FMU's page (what it models and after
which publication, its validation, where it runs, its ports and parameters),
and ``fmi-ls-ref.html``, how to run the reference experiment and what agreement
to expect.

Unlike the layered standard, the reference experiment is described in
``fmi-ls-ref.html`` and the ``Related`` descriptions: the format of an
experiment file (role ``experiment``) is not published yet.
"""
from __future__ import annotations

import hashlib
import html
import inspect
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..blocks.units import base_unit_attributes

__all__ = ["LS_FOLDER", "ParameterSet", "reference_values", "ls_ref_files"]

#: the folder of the layered standard's files in the FMU
LS_FOLDER = "extra/org.fmi-standard.fmi-ls-ref"
LS_NAME, LS_VERSION = "org.fmi-standard.fmi-ls-ref", "1.0.0-alpha.1"
_LS = "http://fmi-standard.org/fmi-ls-manifest"
_SSV = "http://ssp-standard.org/SSP1/SystemStructureParameterValues"
_SSC = "http://ssp-standard.org/SSP1/SystemStructureCommon"
_SSV_TYPE = "application/x-ssp-parameter-set"


@dataclass(frozen=True)
class ParameterSet:
    """Values of a block's parameters, by name, in their declared units:
    ``stem`` names the ``.ssv`` file, ``description`` says where they come
    from (an example of the project, its component)."""
    stem: str
    description: str
    values: dict


def reference_values(block_cls) -> dict:
    """The values of the reference experiment, by variable name: every
    parameter at its default, then the block's ``reference_experiment``."""
    return {**{v.name: v.start for v in block_cls.parameters}, **block_cls.reference_experiment}


def _ssv(name: str, values: dict, variables: dict) -> bytes:
    """An SSP 1.0 parameter set (``ssv:ParameterSet``) of ``values``, the
    types and units those of ``variables`` (name: :class:`Variable`)."""
    ET.register_namespace("ssv", _SSV)
    ET.register_namespace("ssc", _SSC)
    pset = ET.Element(f"{{{_SSV}}}ParameterSet", version="1.0", name=name)
    params = ET.SubElement(pset, f"{{{_SSV}}}Parameters")
    units = set()
    for key, value in values.items():
        var = variables[key]
        p = ET.SubElement(params, f"{{{_SSV}}}Parameter", name=key)
        if var.type == "Real":
            attrs = {"value": repr(float(value)), **({"unit": var.unit} if var.unit else {})}
            units |= {var.unit} - {""}
            ET.SubElement(p, f"{{{_SSV}}}Real", attrs)
        elif var.type == "Boolean":
            ET.SubElement(p, f"{{{_SSV}}}Boolean", value=str(bool(value)).lower())
        elif var.type == "Integer":
            ET.SubElement(p, f"{{{_SSV}}}Integer", value=str(int(value)))
        else:
            ET.SubElement(p, f"{{{_SSV}}}String", value=str(value))
    if units:  # a standalone set defines the units it uses, as SSP 1.0 asks
        defined = ET.SubElement(pset, f"{{{_SSV}}}Units")
        for unit in sorted(units):
            ET.SubElement(ET.SubElement(defined, f"{{{_SSC}}}Unit", name=unit), f"{{{_SSC}}}BaseUnit",
                          base_unit_attributes(unit))
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(pset, encoding="utf-8") + b"\n"


def _manifest(entries: list[tuple[str, str, str, str, bytes]]) -> bytes:
    """The manifest of ``entries`` (source, MIME type, role, description, content)."""
    ET.register_namespace("fmi-ls", _LS)
    root = ET.Element("fmiReferences", {f"{{{_LS}}}fmi-ls-name": LS_NAME, f"{{{_LS}}}fmi-ls-version": LS_VERSION,
                                        f"{{{_LS}}}fmi-ls-description": "Layered Standard providing information "
                                                                        "on related files included in an FMU."})
    for source, kind, role, description, data in entries:
        ET.SubElement(root, "Related", type=kind, source=source, role=role, description=description,
                      checksum=hashlib.sha3_256(data).hexdigest(), checksumType="SHA3-256")
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


def _cell(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return html.escape(value if isinstance(value, str) else f"{value:g}")


def _rows(variables, columns) -> str:
    head = "".join(f"<th>{html.escape(title)}</th>" for title, _ in columns)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for _, cell in columns) + "</tr>\n" for v in variables)
    return f"<table>\n<tr>{head}</tr>\n{body}</table>\n"


_STYLE = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.4}"
          "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left}"
          "code,pre{background:#f4f4f4}")


def _page(title: str, body: str) -> bytes:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{_STYLE}</style></head>\n<body>\n{body}</body></html>\n").encode()


def _index(block_cls, glibc: str | None) -> bytes:
    """``documentation/index.html``: the FMU's page; ``glibc`` the oldest
    GNU C library the FMU runs on."""
    name = lambda v: f"<code>{html.escape(v.name)}</code>"  # noqa: E731
    unit = lambda v: html.escape(v.unit or "1")  # noqa: E731
    deps = block_cls.output_dependencies()
    every = set(block_cls.input_names())
    depends = lambda v: ("all inputs" if deps[v.name] and set(deps[v.name]) == every  # noqa: E731
                         else ", ".join(deps[v.name]) or "none")
    notes = inspect.cleandoc(block_cls.__dict__.get("__doc__") or inspect.getmodule(block_cls).__doc__ or "")
    body = (f"<h1>{html.escape(block_cls.model_name)}</h1>\n<p>{html.escape(block_cls.description)}</p>\n"
            f"<h2>What it follows</h2>\n<p>{html.escape(block_cls.reference)}</p>\n"
            f"<h2>How it is validated</h2>\n<p>{html.escape(block_cls.validation)}</p>\n"
            f"<p>A reference experiment and its expected outputs come with this FMU: "
            f'<a href="fmi-ls-ref.html">how to run it and compare</a>.</p>\n'
            f"<h2>Where it runs</h2>\n<p>Any FMI 2.0 co-simulation host on Linux x86-64 with the GNU C library "
            f"{glibc or '(any version)'} or newer, with no Python installed or any: the FMU carries the Python "
            f"it runs and runs each instance in a process of its own.</p>\n"
            f"<h2>Default experiment</h2>\n<p>0 to {block_cls.default_stop_time:g} s in communication steps "
            f"of {block_cls.default_step:g} s.</p>\n"
            f"<h2>Parameters</h2>\n" + _rows(block_cls.parameters, [
                ("name", name), ("unit", unit), ("default", lambda v: _cell(v.start)),
                ("changes", lambda v: "tunable" if v.tunable else "fixed"),
                ("description", lambda v: html.escape(v.description))])
            + "<h2>Inputs</h2>\n" + _rows(block_cls.inputs, [
                ("name", name), ("unit", unit), ("start", lambda v: _cell(v.start)),
                ("description", lambda v: html.escape(v.description))])
            + "<h2>Outputs</h2>\n" + _rows(block_cls.outputs, [
                ("name", name), ("unit", unit), ("depends directly on", depends),
                ("description", lambda v: html.escape(v.description))])
            + f"<h2>Model notes</h2>\n<pre>{html.escape(notes)}</pre>\n")
    return _page(f"{block_cls.model_name} FMU", body)


def _how_to_check(block_cls, every: int, sets: list[ParameterSet]) -> bytes:
    """``documentation/fmi-ls-ref.html``: the reference experiment."""
    held = block_cls.reference_experiment
    values = ("every parameter at its default" + (", and " + ", ".join(
        f"<code>{html.escape(k)}</code> = {v:g}" for k, v in held.items()) if held else "")
              + " (the other inputs at their start values, held constant)")
    examples = "".join(f"<li><code>{html.escape(s.stem)}.ssv</code>: {html.escape(s.description)}</li>\n"
                       for s in sets)
    body = (f"<h1>Checking {html.escape(block_cls.model_name)}</h1>\n"
            f"<p>This FMU carries the related files of the FMI layered standard FMI-LS-REF ({LS_VERSION}), "
            f"listed with their roles and SHA3-256 checksums in <code>{LS_FOLDER}/fmi-ls-manifest.xml</code>.</p>\n"
            f"<h2>The reference experiment</h2>\n<ol>\n"
            f"<li>Apply <code>reference.ssv</code>: {values}. Set the values in initialization mode.</li>\n"
            f"<li>Run the DefaultExperiment: from t = 0 to {block_cls.default_stop_time:g} s, one "
            f"<code>fmi2DoStep</code> of {block_cls.default_step:g} s after another, the k-th from "
            f"t = (k - 1) h.</li>\n"
            f"<li>Compare the Real outputs with <code>reference.csv</code>: a row after initialization, then "
            f"one after each step k that is a multiple of {every}, and after the last.</li>\n</ol>\n"
            f"<p>On Linux x86-64 this FMU gives the file's values bit for bit (they were computed by its own "
            f"binary and code, with the kernels it carries). A host that steps otherwise (another step size, "
            f"other times passed to <code>fmi2DoStep</code>) gives other values: the outputs depend on the "
            f"communication step through the inputs held over it.</p>\n"
            f"<h2>Parameter sets</h2>\n<ul>\n<li><code>reference.ssv</code>: the reference experiment's values."
            f"</li>\n{examples}</ul>\n"
            f"<p>Each applies to the variables of the FMU of the same names (SSP 1.0 parameter values).</p>\n"
            f"<h2>Where this departs from FMI-LS-REF</h2>\n<p>The experiment is described here and in the "
            f"manifest's descriptions, not in a file of role <code>experiment</code>: the format the layered "
            f"standard names for it (the Modelica Association's harmonized experiments format) is not "
            f"published yet.</p>\n")
    return _page(f"Checking {block_cls.model_name}", body)


def ls_ref_files(block_cls, reference_csv: bytes, every: int, sets: list[ParameterSet],
                 glibc: str | None = None) -> dict[str, bytes]:
    """The files named above, by their path in the FMU (``glibc``: the
    oldest GNU C library it runs on, which its page states)."""
    variables = {v.name: v for v in (*block_cls.parameters, *block_cls.inputs)}
    docs = {"documentation/index.html": _index(block_cls, glibc),
            "documentation/fmi-ls-ref.html": _how_to_check(block_cls, every, sets)}
    entries = [("reference.ssv", _SSV_TYPE, "parameter", "The values of the reference experiment (see "
                "documentation/fmi-ls-ref.html).", _ssv("reference", reference_values(block_cls), variables)),
               ("reference.csv", "text/csv", "result", f"The Real outputs of the reference experiment, the "
                f"DefaultExperiment with reference.ssv applied, after initialization, after each step k that is a "
                f"multiple of {every} and after the last.",
                reference_csv)]
    entries += [(f"{s.stem}.ssv", _SSV_TYPE, "parameter", s.description, _ssv(s.stem, s.values, variables))
                for s in sets]
    files = {f"{LS_FOLDER}/{source}": data for source, _, _, _, data in entries}
    entries += [(f"../../{path}", "text/html", "document", what, docs[path]) for path, what in (
        ("documentation/index.html", "What the FMU models, what it follows, how it is validated, its ports "
                                     "and parameters."),
        ("documentation/fmi-ls-ref.html", "How to run the reference experiment and what agreement to expect."))]
    return {**files, **docs, f"{LS_FOLDER}/fmi-ls-manifest.xml": _manifest(entries)}

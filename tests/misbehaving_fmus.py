"""FMUs written in C for the tests, built from the C sources and
descriptions in ``tests/typed_fmus`` with the system's C compiler: FMI
3.0 behaviour that pythonfmu3 cannot produce, such as an early return,
and a Model Exchange FMU, which pythonfmu does not make."""
import shutil
import subprocess
import zipfile
from pathlib import Path

import fmpy

SOURCES = Path(__file__).parent / "typed_fmus"


def c_fmu(name: str, out) -> Path:
    """``<out>/<Name>.fmu`` built from ``typed_fmus/<name>.c`` and
    ``typed_fmus/<name>.xml``: the library in this machine's binaries
    folder of the description's FMI version (``linux64`` for FMI 1.0 and
    2.0, ``x86_64-linux`` for FMI 3.0)."""
    out = Path(out)
    identifier = name[0].upper() + name[1:]
    library = out / f"{identifier}{fmpy.sharedLibraryExtension}"
    compiler = shutil.which("cc") or shutil.which("gcc")
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(SOURCES / f"{name}.c")], check=True,
                   capture_output=True)
    fmu = out / f"{identifier}.fmu"
    with zipfile.ZipFile(fmu, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(SOURCES / f"{name}.xml", "modelDescription.xml")
        fmi3 = 'fmiVersion="3.0"' in (SOURCES / f"{name}.xml").read_text()
        z.write(library, f"binaries/{fmpy.platform_tuple if fmi3 else fmpy.platform}/{library.name}")
    library.unlink()
    return fmu


def lag_in_units(lag, out, name: str, x_unit: str, u_unit: str):
    """``lag`` (``tests/typed_fmus/lag2.c``) with its state x in ``x_unit`` and
    its input u in ``u_unit``, each of ft, m or s defined."""
    units = {"ft": '<BaseUnit m="1" factor="0.3048"/>', "m": '<BaseUnit m="1"/>', "s": '<BaseUnit s="1"/>'}
    path = out / f"{name}.fmu"
    with zipfile.ZipFile(lag) as src, zipfile.ZipFile(path, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "modelDescription.xml":
                text = data.decode()
                defined = "".join(f'<Unit name="{u}">{units[u]}</Unit>' for u in sorted({x_unit, u_unit} - {"s"}))
                text = text.replace('<Unit name="s">', defined + '<Unit name="s">')
                text = text.replace('causality="output" variability="continuous" initial="exact"\n      '
                                    'description="The lag\'s state">\n      <Real start="0"/>',
                                    f'causality="output" variability="continuous" initial="exact"\n      '
                                    f'description="The lag\'s state">\n      <Real start="0" unit="{x_unit}"/>')
                text = text.replace('description="Its input">\n      <Real start="0"/>',
                                    f'description="Its input">\n      <Real start="0" unit="{u_unit}"/>')
                assert text.count(f'unit="{x_unit}"') >= 1 and text.count(f'unit="{u_unit}"') >= 1
                data = text.encode()
            dst.writestr(item, data)
    return path

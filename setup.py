"""Build of kafkawire's compiled parts.

Every ``kafkawire/**/*.pyx`` becomes an extension module, linked with the
portable C of ``src_c/`` that it calls (``C_SOURCES``; the headers are
included as needed) and, for the codecs, the vendored reference codec sources of
``src_c/vendor/`` (liblz4's block decoder, libzstd's decompressor; see the README
there).  Environment switches:

- ``KAFKAWIRE_DEBUG=1``: -O0 -g, assertions on, Cython line tracing and HTML annotation.
- ``KAFKAWIRE_SANITIZE=1``: AddressSanitizer + UndefinedBehaviorSanitizer (run the
  tests with the ASan runtime preloaded: ``make test-asan``).
- ``KAFKAWIRE_COVERAGE=1``: gcov instrumentation of the C code.
- ``KAFKAWIRE_KEEP_GOING=1``: a module that fails to compile is reported and
  skipped instead of stopping the build (the Makefile sets it outside CI, so
  that work in progress on one module does not block the others).
"""

import os
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
DEBUG = os.environ.get("KAFKAWIRE_DEBUG") == "1"
SANITIZE = os.environ.get("KAFKAWIRE_SANITIZE") == "1"
COVERAGE = os.environ.get("KAFKAWIRE_COVERAGE") == "1"
KEEP_GOING = os.environ.get("KAFKAWIRE_KEEP_GOING") == "1"

# The src_c objects each extension links (headers-only helpers need no entry).
C_SOURCES = {
    "kafkawire.records._decode": ["crc32c.c", "record_scan.c"],
    "kafkawire.records._build": ["crc32c.c", "record_encode.c"],
    "kafkawire.compression._codecs": [
        "lz4_decode.c",
        "lz4_encode.c",
        "snappy_decode.c",
        "zstd_decode.c",
        "vendor/lz4/lz4.c",
        "vendor/lz4/xxhash.c",
        "vendor/zstd/common/debug.c",
        "vendor/zstd/common/entropy_common.c",
        "vendor/zstd/common/error_private.c",
        "vendor/zstd/common/fse_decompress.c",
        "vendor/zstd/common/xxhash.c",
        "vendor/zstd/common/zstd_common.c",
        "vendor/zstd/decompress/huf_decompress.c",
        # libzstd's x86-64 Huffman loop (assembles to nothing on other targets)
        "vendor/zstd/decompress/huf_decompress_amd64.S",
        "vendor/zstd/decompress/zstd_ddict.c",
        "vendor/zstd/decompress/zstd_decompress.c",
        "vendor/zstd/decompress/zstd_decompress_block.c",
    ],
    "kafkawire.protocol._codec": [],
    "kafkawire.protocol._frame_body": [],
    "kafkawire.client.producer._accumulate": [],
    "kafkawire.registry._avro": ["avro_decode.c"],
    "kafkawire.registry._avro_encode": ["avro_encode.c"],
    "kafkawire.registry._protobuf": ["protobuf_decode.c"],
}
c_headers = sorted(str(p.relative_to(HERE)) for p in (HERE / "src_c").rglob("*.h"))
include_dirs = ["src_c", numpy.get_include()]
compile_args = ["-std=c11", "-Wall", "-Wno-unused-function", "-fno-strict-aliasing"]
link_args: list[str] = []
macros = [
    ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
    # The vendored codecs' functions keep hidden visibility (their headers would mark them
    # default): other copies of lz4 and zstd in the process (the lz4 and zstandard packages,
    # pyarrow) never bind to kafkawire's, nor kafkawire's calls to theirs.
    ("LZ4LIB_VISIBILITY", ""),
    ("ZSTDLIB_VISIBLE", ""),
    ("ZSTDERRORLIB_VISIBLE", ""),
    # libzstd as Kafka uses it: no pre-1.0 formats, no tracing hooks
    ("ZSTD_LEGACY_SUPPORT", "0"),
    ("ZSTD_TRACE", "0"),
]
directives = {
    "language_level": 3,
    # bounds checks stay on; the few loops over typed memoryviews that need them off say so
    "cdivision": True,
    "embedsignature": True,
}

if DEBUG:
    compile_args += ["-O0", "-g3", "-UNDEBUG"]
    macros += [("CYTHON_TRACE_NOGIL", "1"), ("KW_DEBUG", "1")]
    directives["linetrace"] = True
else:
    compile_args += ["-O3"]
if SANITIZE:
    flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"]
    compile_args += [*flags, "-fno-sanitize-recover=undefined"]
    link_args += flags
if COVERAGE:
    compile_args += ["--coverage", "-O0"]
    link_args += ["--coverage"]

extensions = []
for pyx in sorted((HERE / "kafkawire").rglob("*.pyx")):
    rel = pyx.relative_to(HERE)
    module = ".".join(rel.with_suffix("").parts)
    if module not in C_SOURCES:
        raise SystemExit(f"setup.py: say in C_SOURCES which src_c files {module} links")
    sources = [f"src_c/{name}" for name in C_SOURCES[module]]
    includes = sorted(str(p.relative_to(HERE)) for p in pyx.parent.glob(f"{pyx.stem}*.pxi"))
    extensions.append(
        Extension(
            module,
            [str(rel)],
            depends=[*sources, *c_headers, *includes],  # sources linked in by BuildExt
            include_dirs=include_dirs,
            define_macros=macros,
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
    )


def cythonized(ext: Extension) -> list[Extension]:
    try:
        return cythonize([ext], compiler_directives=directives, annotate=DEBUG)
    except Exception as exc:
        if not KEEP_GOING:
            raise
        print(f"SKIPPED {ext.name}: Cython failed ({exc})")
        return []


class BuildExt(build_ext):
    def build_extensions(self):
        # src_c/ is compiled once, before the extensions, and each extension links the objects
        # of its C_SOURCES. Compiled as part of each one, parallel builds (-j) wrote the same
        # object files at the same time, and an extension could link a half-written one
        # (undefined symbol at import).
        wanted = sorted({name for names in C_SOURCES.values() for name in names})
        self.compiler.src_extensions.append(".S")  # preprocessed assembly: gcc and clang
        objects = self.compiler.compile(
            [f"src_c/{name}" for name in wanted],
            output_dir=self.build_temp,
            macros=macros,
            include_dirs=include_dirs,
            extra_postargs=[*compile_args, "-fvisibility=hidden"],
            depends=c_headers,
        )
        object_of = dict(zip(wanted, objects, strict=True))
        for ext in self.extensions:
            linked = [object_of[name] for name in C_SOURCES[ext.name]]
            ext.extra_objects = [*ext.extra_objects, *linked]
        super().build_extensions()

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:
            if not KEEP_GOING:
                raise
            print(f"SKIPPED {ext.name}: C compilation failed ({exc})")


setup(
    ext_modules=[out for ext in extensions for out in cythonized(ext)],
    cmdclass={"build_ext": BuildExt},
)

"""trnsci's exception hierarchy (docs/python.md).

Every failure of a library call is a :class:`Error` carrying the C API's status name (``.status``,
e.g. ``"TRNBLAS_STATUS_INVALID_VALUE"``), its numeric value (``.code``), the 1-based position of the
illegal argument the library logged (``.param``, 0 when none; cuBLAS/XERBLA numbering, handle not
counted), the library and routine, and the library's logged line as the message.  Arguments the
bindings reject before any C call (wrong dtype, shape, non-contiguous arrays) raise
:class:`InvalidArgumentError` with the Python argument's position and name.  The subclasses also
derive from the matching built-in exception (ValueError, NotImplementedError, MemoryError,
RuntimeError) so generic handlers keep working.
"""


class Error(Exception):
    """Base of every trnsci exception."""

    def __init__(self, message="", *, library="", routine="", status=None, code=0, param=0):
        super().__init__(message)
        self.library = library
        self.routine = routine
        self.status = status
        self.code = code
        self.param = param


class InvalidValueError(Error, ValueError):
    """An illegal argument (the libraries' INVALID_VALUE, cuRAND's OUT_OF_RANGE, cuFFT's INVALID_SIZE ...)."""


class InvalidArgumentError(InvalidValueError, TypeError):
    """An argument the Python binding rejects before calling the library (dtype, shape, layout)."""

    def __init__(self, routine, param, name, why):
        super().__init__(f"{routine}: argument {param} ({name}): {why}", routine=routine,
                         status="INVALID_ARGUMENT", param=param)
        self.argument = name
        self.reason = why


class NotSupportedError(Error, NotImplementedError):
    """The libraries' NOT_SUPPORTED / ARCH_MISMATCH: valid, but not available in this configuration."""


class ExecutionFailedError(Error, RuntimeError):
    """EXECUTION_FAILED: an emulated kernel hit a hardware limit (capacity, tile size) or failed."""


class AllocFailedError(Error, MemoryError):
    """ALLOC_FAILED: out of host memory."""


class NotInitializedError(Error, RuntimeError):
    """NOT_INITIALIZED / INVALID_PLAN: a handle or plan the library does not know."""


class InternalError(Error, RuntimeError):
    """INTERNAL_ERROR and any status without a more specific class."""


# Exceptions of C++ code the bindings call directly (the NKI front end): trn::Error and its family.
class EmulatorError(ExecutionFailedError):
    """trn::Error: the emulator rejected an instruction."""

    def __init__(self, message=""):
        super().__init__(message, status="TRN_ERROR")


class LimitError(EmulatorError):
    """trn::LimitError: a hardware limit (tile size, SBUF/PSUM capacity, partitions) was exceeded."""


class UsageError(EmulatorError):
    """trn::UsageError: an instruction used in a way the hardware does not allow."""


class EmulatorNotSupportedError(EmulatorError, NotImplementedError):
    """trn::NotSupportedError: a feature the selected generation lacks."""


_BY_SUFFIX = (
    ("NOT_SUPPORTED", NotSupportedError),
    ("ARCH_MISMATCH", NotSupportedError),
    ("NOT_INITIALIZED", NotInitializedError),
    ("INVALID_PLAN", NotInitializedError),
    ("ALLOC_FAILED", AllocFailedError),
    ("EXECUTION_FAILED", ExecutionFailedError),
    ("EXEC_FAILED", ExecutionFailedError),
    ("INVALID_VALUE", InvalidValueError),
    ("INVALID_SIZE", InvalidValueError),
    ("INVALID_TYPE", InvalidValueError),
    ("OUT_OF_RANGE", InvalidValueError),
    ("LENGTH_NOT_MULTIPLE", InvalidValueError),
    ("MATRIX_TYPE_NOT_SUPPORTED", NotSupportedError),
    ("TYPE_ERROR", InvalidValueError),
    ("INVALID_DEVICE", InvalidValueError),
    ("UNALIGNED_DATA", InvalidValueError),
)


def class_of_status(status_name):
    """The Error subclass a C status name maps to (by its suffix)."""
    for suffix, cls in _BY_SUFFIX:
        if status_name.endswith(suffix):
            return cls
    return InternalError


def from_status(library, routine, status_name, code, param, message):
    """Builds the exception of a failed C call (used by trnsci._core)."""
    cls = class_of_status(status_name)
    text = message or f"{routine}: {status_name}"
    if param:
        text += f" [parameter {param}]"
    return cls(text, library=library, routine=routine, status=status_name, code=code, param=param)

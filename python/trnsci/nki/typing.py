"""trnsci.nki.typing: `nt.tensor[...]` annotations (NKI's shape hints; not checked)."""


class _Annotation:
    def __getitem__(self, item):
        return self

    def __call__(self, *a, **k):
        return self


tensor = _Annotation()
scalar = _Annotation()

// placeholder: filled in by the engine implementation

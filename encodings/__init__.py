# Package data: the ASP encodings (.lp). See each file's header.

"""The exports: sinks that write what the build hands them (TEI, tables, database, figures, site)."""

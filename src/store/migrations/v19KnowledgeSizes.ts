/**
 * v19: kg_triples.size (issue 23) — the characters of a triple (subject, predicate, object, source
 * and provenance), kept by every write of the triple, so what the knowledge graph holds is one
 * index-only sum (kg_triples_sizes) beside the count kg_insert already makes. Rows already there
 * are measured here. PostgreSQL runs the same statements (postgres/pgSchema.ts overrides: the
 * UPDATE does not go through the DDL translation).
 */
export const v19KnowledgeSizes: readonly string[] = [
  'ALTER TABLE kg_triples ADD COLUMN size INTEGER NOT NULL DEFAULT 0',
  "UPDATE kg_triples SET size = length(subject) + length(predicate) + length(object) + length(COALESCE(source, '')) + length(provenance)",
  'CREATE INDEX kg_triples_sizes ON kg_triples(size)',
];

// Query shapes compiled once. Building and compiling a Kysely query costs about as much as PGlite
// takes to run the hot lookups (measured: 340 µs per lookup through the builder, 190 µs
// precompiled), so those shapes are compiled a single time with placeholder values, and each
// execution only substitutes the real values into the compiled parameter list.
import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
} from 'kysely'
import type { Executor } from './database.ts'
import type { DB } from './schema.ts'

/** Compiles only; never connects. */
const compiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

const placeholder = (n: number) => `\u0000precompiled:${n}\u0000`

export type Precompiled<A extends unknown[], R> = (db: Executor, ...args: A) => Promise<R[]>

/**
 * `build` is called once, with a placeholder standing in for each argument (typed as the argument,
 * though at that moment it is a marker string). Every placeholder must reach the query as a bound
 * parameter, never inlined as a literal or an identifier; compiling checks that.
 */
export function precompile<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<DB>, ...args: A) => Compilable<R>,
): Precompiled<A, R> {
  const holders = Array.from({ length: arity }, (_, i) => placeholder(i))
  const compiled = build(compiler, ...(holders as unknown as A)).compile()
  if (compiled.sql.includes('\u0000precompiled:')) throw new Error('a placeholder was inlined into the SQL')
  const slots = compiled.parameters.map((p) => holders.indexOf(p as string))
  for (let i = 0; i < arity; i++) {
    if (!slots.includes(i)) throw new Error(`precompiled query does not bind argument ${i}: ${compiled.sql}`)
  }
  return async (db, ...args) => {
    const parameters = compiled.parameters.map((p, i) => (slots[i]! >= 0 ? args[slots[i]!] : p))
    const result = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters))
    return result.rows
  }
}

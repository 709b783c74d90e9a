// scripts/tenant-routing.ts: which statements route to one shard when tenant tables are distributed
// by tenant_id (issue 19 point 3). Table by table: what passes, what is a violation and why.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { before, describe, test } from 'node:test'
import { readStatementLog } from '../scripts/check-tenant-routing.ts'
import {
  analyzeSql,
  formatSummary,
  loadParser,
  parseExceptions,
  summarize,
  type StatementReport,
} from '../scripts/tenant-routing.ts'

// `tenant` and `kysely_migration` are reference tables: no tenant_id.
const TENANT_TABLES = new Set(['contract', 'contract_hold', 'dealer_agent', 'journal_line'])

before(() => loadParser())

function check(sql: string): StatementReport {
  return analyzeSql(sql, TENANT_TABLES)
}

/** `table: reason` of every violation, for compact assertions. */
function problems(sql: string): string[] {
  return check(sql).violations.map((v) => `${v.ref}: ${v.reason}`)
}

describe('statements that route to one shard', () => {
  const routed: [string, string][] = [
    ['equality to a parameter', 'select * from contract where tenant_id = $1 and id = $2'],
    ['qualified by the alias, as Kysely writes it', 'select "c".* from "contract" as "c" where "c"."tenant_id" = $1'],
    ['equality to a constant', 'select * from contract c where 7 = c.tenant_id'],
    ['equality to a cast parameter', 'select * from contract c where c.tenant_id = $1::bigint'],
    ['IN with one value', 'select * from contract where tenant_id in ($1) and id = $2'],
    [
      'the pin inside a conjunct with an OR beside it',
      'select * from contract where tenant_id = $1 and (id = $2 or id = $3)',
    ],
    [
      'inner join pinned through the ON',
      'select * from contract c join contract_hold h on h.tenant_id = c.tenant_id and h.contract_id = c.id where c.tenant_id = $1',
    ],
    [
      'inner join pinned by the WHERE of both',
      'select * from contract c, contract_hold h where h.contract_id = c.id and c.tenant_id = $1 and h.tenant_id = $1',
    ],
    [
      'join USING (tenant_id)',
      'select * from contract c join contract_hold h using (tenant_id) where c.tenant_id = $1 and h.contract_id = c.id',
    ],
    [
      'left join: the ON pins the nullable side',
      'select * from contract c left join contract_hold h on h.tenant_id = c.tenant_id and h.contract_id = c.id where c.tenant_id = $1',
    ],
    [
      'three tables in a chain',
      `select * from journal_line l join contract c on c.tenant_id = l.tenant_id and c.id = l.contract_id
         join contract_hold h on h.tenant_id = c.tenant_id where l.tenant_id = $1`,
    ],
    [
      'pinned through a reference table column',
      'select * from tenant t join contract c on c.tenant_id = t.id where t.id = $1',
    ],
    [
      'correlated scalar subquery',
      `select c.*, (select count(*) from contract_hold h where h.tenant_id = c.tenant_id and h.contract_id = c.id)
         from contract c where c.tenant_id = $1`,
    ],
    [
      'correlated EXISTS with a lateral unnest',
      `select * from contract c where c.tenant_id = $1 and exists (
         select 1 from dealer_agent da cross join lateral unnest(da.tags) as t(tag)
          where da.tenant_id = c.tenant_id and da.dealer_id = c.dealer_id)`,
    ],
    [
      'IN (subquery) pinned inside',
      'select * from contract where tenant_id = $1 and id in (select contract_id from contract_hold where tenant_id = $1)',
    ],
    ['CTE pinned inside', 'with x as (select id from contract where tenant_id = $1) select * from x'],
    [
      'CTE output column pins a join',
      `with x as (select tenant_id, id from contract where tenant_id = $1)
       select * from x join contract_hold h on h.tenant_id = x.tenant_id and h.contract_id = x.id`,
    ],
    [
      'subquery output column (renamed by the alias) pins a join',
      `select * from (select tenant_id, id from contract where tenant_id = $1) as s(t, i)
         join contract_hold h on h.tenant_id = s.t and h.contract_id = s.i`,
    ],
    [
      'subquery * output pins a join',
      `select * from (select * from contract where tenant_id = $1) s
         join contract_hold h on h.tenant_id = s.tenant_id and h.contract_id = s.id`,
    ],
    [
      'UNION with both sides pinned',
      'select id from contract where tenant_id = $1 union all select contract_id from contract_hold where tenant_id = $1',
    ],
    ['EXISTS at the top', 'select exists (select 1 from contract where tenant_id = $1 and vin = $2)'],
    ['UPDATE', 'update contract set status = $1, version = version + 1 where tenant_id = $2 and id = $3 returning *'],
    [
      'UPDATE … FROM',
      'update contract c set status = $1 from contract_hold h where h.tenant_id = c.tenant_id and h.contract_id = c.id and c.tenant_id = $2',
    ],
    ['DELETE', 'delete from dealer_agent where tenant_id = $1 and dealer_id = $2'],
    [
      'DELETE … USING',
      'delete from contract_hold h using contract c where c.tenant_id = $1 and h.tenant_id = c.tenant_id and h.contract_id = c.id',
    ],
    ['INSERT … VALUES', 'insert into contract_hold (tenant_id, contract_id) values ($1, $2), ($3, $4) returning *'],
    [
      'INSERT … ON CONFLICT DO UPDATE',
      `insert into dealer_agent (tenant_id, dealer_id, agent_id) values ($1, $2, $3)
         on conflict (tenant_id, dealer_id, agent_id) do update set agent_id = excluded.agent_id`,
    ],
    [
      'INSERT … SELECT pinned',
      'insert into contract_hold (tenant_id, contract_id) select tenant_id, id from contract where tenant_id = $1 and vin = $2',
    ],
    [
      'INSERT with a subquery in VALUES',
      `insert into contract_hold (tenant_id, contract_id)
         values ($1, (select id from contract where tenant_id = $1 and contract_number = $2))`,
    ],
    [
      'data-modifying CTE',
      'with d as (delete from contract_hold where tenant_id = $1 returning id) select count(*) from d',
    ],
    ['EXPLAIN', 'explain select * from contract where tenant_id = $1'],
    ['COPY FROM with tenant_id listed', 'copy contract_hold (tenant_id, contract_id) from stdin'],
  ]
  for (const [name, sql] of routed) {
    test(name, () => {
      const report = check(sql)
      assert.equal(report.category, 'tenant', report.error)
      assert.deepEqual(problems(sql), [])
    })
  }
})

describe('statements on no tenant table pass', () => {
  const plain: [string, string][] = [
    ['constant', 'select 1'],
    ['binding the tenant', "select set_config('app.tenant_id', $1, true)"],
    ['the tenant registry', 'select id from tenant order by id'],
    ['a catalog query', 'select c.relname from pg_catalog.pg_class c join pg_namespace n on n.oid = c.relnamespace'],
    ['a table of another schema', 'select * from archive.contract'],
    ['a CTE that shadows a tenant table', 'with contract as (select 1 as id) select * from contract'],
    ['migration bookkeeping', 'insert into "kysely_migration" ("name", "timestamp") values ($1, $2)'],
  ]
  for (const [name, sql] of plain) {
    test(name, () => {
      const report = check(sql)
      assert.equal(report.category, 'plain')
      assert.deepEqual(report.violations, [])
    })
  }
  for (const sql of ['begin', 'commit', 'rollback', 'set statement_timeout = 0', 'listen cache_bus', "notify x, 'y'"]) {
    test(`session statement: ${sql}`, () => assert.equal(check(sql).category, 'plain'))
  }
})

describe('DDL is not checked, only counted', () => {
  const ddl: [string, string[]][] = [
    ['create table contract_note (id bigint, tenant_id bigint)', ['CreateStmt']],
    ['alter table contract add column note text', ['AlterTableStmt']],
    ['drop table if exists contract_note', ['DropStmt']],
    ['create index on contract (tenant_id, vin)', ['IndexStmt']],
    // A migration's text: DDL with a backfill that scans every tenant, run once by the operator.
    ['alter table contract add column n int; update contract set n = 0', ['AlterTableStmt', 'UpdateStmt']],
  ]
  for (const [sql, kinds] of ddl) {
    test(sql, () => {
      const report = check(sql)
      assert.equal(report.category, 'ddl')
      assert.deepEqual(report.kinds, kinds)
      assert.deepEqual(report.violations, [])
    })
  }
})

describe('violations', () => {
  const violations: [string, string, string[]][] = [
    ['no tenant_id at all', 'select * from contract where id = $1', ['contract: no condition on contract.tenant_id']],
    [
      'tenant_id only under an OR',
      'select * from contract where tenant_id = $1 or id = $2',
      [
        'contract: tenant_id is in a condition, but no top-level conjunct of its WHERE/ON sets it equal to a parameter, a constant or a pinned column',
      ],
    ],
    [
      'tenant_id = any(array): several shards',
      'select * from contract c where c.tenant_id = any($1)',
      [
        'c: tenant_id is in a condition, but no top-level conjunct of its WHERE/ON sets it equal to a parameter, a constant or a pinned column',
      ],
    ],
    [
      'tenant_id compared to a function: the row-level security condition does not route',
      'select * from contract where tenant_id = app_current_tenant()',
      [
        'contract: tenant_id is in a condition, but no top-level conjunct of its WHERE/ON sets it equal to a parameter, a constant or a pinned column',
      ],
    ],
    [
      'a joined table without its tenant_id',
      'select * from contract c join contract_hold h on h.contract_id = c.id where c.tenant_id = $1',
      ['h: no condition on h.tenant_id'],
    ],
    [
      'a condition on the preserved side of a LEFT JOIN does not filter it',
      'select * from contract c left join contract_hold h on c.tenant_id = $1 and h.tenant_id = c.tenant_id',
      [
        'c: tenant_id is in a condition, but no top-level conjunct of its WHERE/ON sets it equal to a parameter, a constant or a pinned column',
        'h: tenant_id is in a condition, but no top-level conjunct of its WHERE/ON sets it equal to a parameter, a constant or a pinned column',
      ],
    ],
    [
      'a FULL JOIN ON pins neither side',
      'select * from contract c full join contract_hold h on h.tenant_id = c.tenant_id where c.tenant_id = $1',
      [
        'h: tenant_id is in a condition, but no top-level conjunct of its WHERE/ON sets it equal to a parameter, a constant or a pinned column',
      ],
    ],
    [
      'a correlated subquery without tenant_id',
      'select * from contract c where c.tenant_id = $1 and exists (select 1 from contract_hold h where h.contract_id = c.id)',
      ['h: no condition on h.tenant_id'],
    ],
    [
      'a subquery never pins its enclosing query',
      'select * from contract c where exists (select 1 from contract_hold h where h.tenant_id = $1 and h.tenant_id = c.tenant_id)',
      [
        'c: tenant_id is in a condition, but no top-level conjunct of its WHERE/ON sets it equal to a parameter, a constant or a pinned column',
      ],
    ],
    [
      'a condition outside a FROM subquery does not reach inside (a documented limit)',
      'select * from (select * from contract) s where s.tenant_id = $1',
      ['contract: no condition on contract.tenant_id'],
    ],
    [
      'an unpinned CTE',
      'with x as (select id from contract) select * from x',
      ['contract: no condition on contract.tenant_id'],
    ],
    [
      'one side of a UNION',
      'select id from contract where tenant_id = $1 union select contract_id from contract_hold',
      ['contract_hold: no condition on contract_hold.tenant_id'],
    ],
    [
      'UPDATE without tenant_id',
      'update contract set status = $1 where id = $2',
      ['contract: no condition on contract.tenant_id'],
    ],
    [
      'UPDATE that moves a row to another tenant',
      'update contract set tenant_id = $1 where tenant_id = $2 and id = $3',
      ['contract: sets tenant_id: a distributed table cannot move a row to another shard'],
    ],
    [
      'DELETE without tenant_id',
      'delete from contract_hold where contract_id = $1',
      ['contract_hold: no condition on contract_hold.tenant_id'],
    ],
    [
      'INSERT without tenant_id in its column list',
      'insert into contract_hold (contract_id) values ($1)',
      ['contract_hold: the column list does not name tenant_id'],
    ],
    ['INSERT without a column list', 'insert into contract_hold values ($1, $2)', ['contract_hold: no column list']],
    [
      'INSERT … SELECT that reads every tenant',
      'insert into contract_hold (tenant_id, contract_id) select tenant_id, id from contract',
      ['contract: no condition on contract.tenant_id'],
    ],
    ['COPY out of a tenant table', 'copy contract to stdout', ['contract: COPY … TO reads every tenant']],
    [
      'MERGE is not analysed',
      'merge into contract c using contract_hold h on h.contract_id = c.id when matched then delete',
      ['c: MergeStmt on a tenant table is not analysed', 'h: MergeStmt on a tenant table is not analysed'],
    ],
  ]
  for (const [name, sql, expected] of violations) {
    test(name, () => {
      assert.equal(check(sql).category, 'tenant')
      assert.deepEqual(problems(sql), expected)
    })
  }

  test('a text the parser refuses is unparseable, with the parser’s message', () => {
    const report = check('selec * from contract')
    assert.equal(report.category, 'unparseable')
    assert.match(report.error ?? '', /syntax error/)
  })
})

describe('summary and exceptions', () => {
  const sqls = [
    'select * from contract where tenant_id = $1',
    'select * from contract where tenant_id = 42', // same fingerprint as the first
    'select 1',
    'create table t (id int)',
    'select count(*) from contract',
    'select id, tenant_id from contract_hold where resolved_at is null',
    'selec 1',
  ]

  test('counts distinct statements by fingerprint and lists each violation with its table and reason', () => {
    const s = summarize(
      sqls.map((sql) => check(sql)),
      [],
    )
    assert.equal(s.texts, 7)
    assert.equal(s.statements, 6)
    assert.equal(s.tenant, 3)
    assert.equal(s.passing, 1)
    assert.equal(s.plain, 1)
    assert.deepEqual([...s.ddl], [['CreateStmt', 1]])
    assert.equal(s.unparseable.length, 1)
    assert.deepEqual(
      s.violations.map((r) => r.sql),
      ['select count(*) from contract', 'select id, tenant_id from contract_hold where resolved_at is null'],
    )
    const text = formatSummary(s)
    assert.match(text, /on tenant tables: 3, routed to one shard: 1, allowed exceptions: 0, violations: 2/)
    assert.match(text, /contract: no condition on contract.tenant_id\n {2}sql: select count\(\*\) from contract/)
    assert.match(text, /unparseable \(syntax error/)
  })

  test('an exception by fingerprint or by pattern allows a statement; one that matches nothing is reported', () => {
    const fingerprint = check('select count(*) from contract').fingerprint
    const exceptions = parseExceptions([
      { fingerprint, reason: 'operator report over every tenant' },
      { pattern: '^select id, tenant_id from contract_hold\\b', reason: 'sealing pass' },
      { pattern: 'never matches', reason: 'stale' },
    ])
    const s = summarize(
      sqls.map((sql) => check(sql)),
      exceptions,
    )
    assert.deepEqual(s.violations, [])
    assert.deepEqual(
      s.excepted.map((e) => e.exception.reason),
      ['operator report over every tenant', 'sealing pass'],
    )
    assert.deepEqual(
      s.unusedExceptions.map((e) => e.reason),
      ['stale'],
    )
    assert.match(formatSummary(s), /warning: exception matched no statement: \/never matches\/ \(stale\)/)
  })

  test('the exceptions file is validated', () => {
    assert.deepEqual(parseExceptions([]), [])
    assert.throws(() => parseExceptions({}), /JSON array/)
    assert.throws(() => parseExceptions([{ pattern: 'x' }]), /exception 0/)
    assert.throws(() => parseExceptions([{ pattern: 'x', fingerprint: 'y', reason: 'r' }]), /exception 0/)
    assert.throws(() => parseExceptions([{ pattern: '(', reason: 'r' }]), /regular expression/i)
  })

  test('the committed exceptions file parses', () => {
    const file = new URL('../scripts/tenant-routing.exceptions.json', import.meta.url)
    assert.doesNotThrow(() => parseExceptions(JSON.parse(fs.readFileSync(file, 'utf8'))))
  })
})

test('the statement log: every .jsonl file of the directory, texts deduplicated, a torn line skipped', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-routing-'))
  try {
    const line = (sql: string) => `${JSON.stringify({ sql })}\n`
    fs.writeFileSync(path.join(dir, '101.jsonl'), line('select 1') + line('begin'))
    fs.writeFileSync(path.join(dir, '102.jsonl'), line('select 1') + line('commit') + '{"sql": "sel')
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a log')
    const log = readStatementLog(dir)
    assert.deepEqual(log.texts.toSorted(), ['begin', 'commit', 'select 1'])
    assert.equal(log.files, 2)
    assert.equal(log.skipped, 1)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

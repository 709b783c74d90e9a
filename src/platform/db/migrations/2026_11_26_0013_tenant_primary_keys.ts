// Frozen: every tenant table's primary key becomes (tenant_id, id), so that each table can be
// distributed by tenant_id (Citus requires every primary key and unique constraint of a distributed
// table to contain the distribution column; docs/scale-out.md). Before this, 22 tables had
// PRIMARY KEY (id), and most of them also UNIQUE (tenant_id, id), which every foreign key between
// tenant tables references. That unique constraint is now the primary key itself: the foreign keys
// that pointed at it are dropped and added again with the same definition (the same columns, so
// they bind to the new primary key), and the redundant unique constraint goes. Nothing references
// (id) alone, so the old primary keys go without a trace. Re-adding a foreign key validates it,
// which reads both tables once: fine at the sizes this runs on; an operator with a large database
// runs it in a maintenance window (docs/scale-out.md).
//
// Driven by the catalog rather than listing 22 tables and 40 foreign keys by hand: it touches
// exactly the tables whose primary key lacks tenant_id, in the state migration 0012 leaves.
// test/distribution.test.ts guards the result on both databases.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    do $$
    declare
      t record;
      fk record;
      defs text[];
      i int;
    begin
      for t in
        select c.oid, c.relname, con.conname as pkey
          from pg_class c
          join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
          join pg_constraint con on con.conrelid = c.oid and con.contype = 'p'
          join pg_attribute a on a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped
         where c.relkind = 'r'
           and a.attnum <> all (con.conkey)
         order by c.relname
      loop
        -- Foreign keys (from any table, this one included) that reference this table's
        -- UNIQUE (tenant_id, id): remember their definitions, drop them.
        defs := '{}';
        for fk in
          select f.conname, (select relname from pg_class where oid = f.conrelid) as on_table, pg_get_constraintdef(f.oid) as def
            from pg_constraint f
            join pg_constraint u on u.conindid = f.conindid and u.conrelid = f.confrelid and u.contype = 'u'
           where f.contype = 'f' and f.confrelid = t.oid
             and u.conname = t.relname || '_tenant_id_id_key'
           order by f.conname
        loop
          defs := defs || format('alter table %I add constraint %I %s', fk.on_table, fk.conname, fk.def);
          execute format('alter table %I drop constraint %I', fk.on_table, fk.conname);
        end loop;
        execute format('alter table %I drop constraint if exists %I', t.relname, t.relname || '_tenant_id_id_key');
        execute format('alter table %I drop constraint %I', t.relname, t.pkey);
        execute format('alter table %I add constraint %I primary key (tenant_id, id)', t.relname, t.relname || '_pkey');
        for i in 1 .. coalesce(array_length(defs, 1), 0) loop
          execute defs[i];
        end loop;
      end loop;
    end
    $$;
  `.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('tenant primary keys migration is not reversible')
}

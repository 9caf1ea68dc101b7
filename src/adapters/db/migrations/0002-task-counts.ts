import { type Kysely, sql } from 'kysely';

/**
 * Exact task totals without counting rows: one counter per (dataset, type, status, creator), kept by
 * a trigger in the same transaction as the change. The Task Manager's `total` sums these counters.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table task_counts (
      dataset_id uuid not null references datasets (id) on delete cascade,
      task_type text not null,
      status text not null,
      created_by uuid not null,
      n bigint not null,
      primary key (dataset_id, task_type, status, created_by)
    );

    -- Statement-level with transition tables: a bulk insert updates each counter once, not once per row.
    -- Statement-level with transition tables: a bulk insert touches each counter once, not once per
    -- row, and an update that changes none of the four keys (progress, messages) writes no counter.
    create function task_counts_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into task_counts as c (dataset_id, task_type, status, created_by, n)
        select dataset_id, task_type, status, created_by, count(*) from new_rows group by 1, 2, 3, 4
        on conflict (dataset_id, task_type, status, created_by) do update set n = c.n + excluded.n;
      elsif tg_op = 'DELETE' then
        update task_counts c set n = c.n - o.k
        from (select dataset_id, task_type, status, created_by, count(*) as k from old_rows group by 1, 2, 3, 4) o
        where (c.dataset_id, c.task_type, c.status, c.created_by) = (o.dataset_id, o.task_type, o.status, o.created_by);
      else
        insert into task_counts as c (dataset_id, task_type, status, created_by, n)
        select dataset_id, task_type, status, created_by, sum(k) from (
          select dataset_id, task_type, status, created_by, -1 as k from old_rows
          union all
          select dataset_id, task_type, status, created_by, 1 from new_rows
        ) moved group by 1, 2, 3, 4 having sum(k) <> 0
        on conflict (dataset_id, task_type, status, created_by) do update set n = c.n + excluded.n;
      end if;
      return null;
    end $$;

    create trigger task_counts_insert after insert on tasks
      referencing new table as new_rows for each statement execute function task_counts_apply();
    create trigger task_counts_delete after delete on tasks
      referencing old table as old_rows for each statement execute function task_counts_apply();
    create trigger task_counts_update after update on tasks
      referencing old table as old_rows new table as new_rows for each statement execute function task_counts_apply();

    insert into task_counts (dataset_id, task_type, status, created_by, n)
      select dataset_id, task_type, status, created_by, count(*) from tasks group by 1, 2, 3, 4;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger task_counts_update on tasks;
    drop trigger task_counts_delete on tasks;
    drop trigger task_counts_insert on tasks;
    drop function task_counts_apply();
    drop table task_counts;
  `.execute(db);
}

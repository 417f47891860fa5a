// Print campaigns (spec 2.11, 4.9; decisions §11, §18; docs/print-campaigns.md): templates (global when brand is
// null, else brand-owned), files (content-addressed objects in the FileStore), template instances (a template
// filled with records, with its stored file) and print campaigns (a brand's use of an instance).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table templates (
      id uuid primary key default gen_random_uuid(),
      -- null = a global template every brand sees (the shipped library)
      brand uuid references brands (id),
      -- the shipped library's stable name for a template, so seeding is idempotent
      library_key text unique,
      name text not null,
      medium text not null,
      template_type text not null,
      inputs text[] not null default '{}',
      variables text[] not null default '{}',
      html text not null,
      created_by uuid references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index templates_brand_idx on templates (brand, medium, created_at) where deleted_at is null;

    create table files (
      id uuid primary key default gen_random_uuid(),
      brand uuid references brands (id),
      -- the FileStore key (content-addressed: sha256 of the bytes)
      path text not null,
      name text not null,
      mime text not null,
      size bigint not null,
      public boolean not null default false,
      -- a rendered preview image of the file (FileStore key), when there is one
      preview_path text,
      preview_mime text,
      created_by uuid references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );

    create table template_instances (
      id uuid primary key default gen_random_uuid(),
      template uuid not null references templates (id),
      brand uuid not null references brands (id),
      medium text not null,
      html text not null,
      file uuid references files (id),
      listings uuid[] not null default '{}',
      contacts uuid[] not null default '{}',
      -- variables the template named that the records did not have (rendered empty)
      unknown_variables text[] not null default '{}',
      -- html_only: the HTML file is stored and no renderer made a print file (render_note says why)
      render_status text not null default 'html_only',
      render_note text,
      created_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index template_instances_brand_idx on template_instances (brand, created_at desc, id desc) where deleted_at is null;

    create table print_campaigns (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      created_by uuid not null references users (id),
      template_instance uuid not null references template_instances (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index print_campaigns_brand_created_idx on print_campaigns (brand, created_at, id) where deleted_at is null;
    create index print_campaigns_brand_updated_idx on print_campaigns (brand, updated_at, id) where deleted_at is null;
  `.execute(db);
}

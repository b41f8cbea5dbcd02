package main

import (
	"database/sql"
	"flag"
	"fmt"
	"os"

	"gorm.io/gorm"
)

// The catalog queries behind dump-schema: what the library's Migrate() really created, read
// from information_schema / pg_catalog of the current schema (PostgreSQL) or database (MySQL).
var pgQueries = map[string]string{
	"columns": `SELECT table_name, column_name, ordinal_position, data_type, character_maximum_length,
	  is_nullable, column_default, udt_name
	  FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
	"indexes": `SELECT tablename AS table_name, indexname AS index_name, indexdef AS definition
	  FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`,
	"constraints": `SELECT cl.relname AS table_name, co.conname AS constraint_name, co.contype AS constraint_type,
	  co.convalidated::text AS validated, pg_get_constraintdef(co.oid) AS definition
	  FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
	  WHERE n.nspname = current_schema() ORDER BY cl.relname, co.conname`,
}

var mysqlQueries = map[string]string{
	"columns": `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, ORDINAL_POSITION AS ordinal_position,
	  COLUMN_TYPE AS column_type, IS_NULLABLE AS is_nullable, COLUMN_DEFAULT AS column_default, EXTRA AS extra,
	  COLLATION_NAME AS collation_name, GENERATION_EXPRESSION AS generation_expression
	  FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
	"indexes": `SELECT TABLE_NAME AS table_name, INDEX_NAME AS index_name, NON_UNIQUE AS non_unique,
	  SEQ_IN_INDEX AS seq_in_index, COLUMN_NAME AS column_name, EXPRESSION AS expression,
	  COLLATION AS collation, SUB_PART AS sub_part
	  FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
	"constraints": `SELECT tc.TABLE_NAME AS table_name, tc.CONSTRAINT_NAME AS constraint_name,
	  tc.CONSTRAINT_TYPE AS constraint_type, tc.ENFORCED AS enforced, cc.CHECK_CLAUSE AS definition
	  FROM information_schema.TABLE_CONSTRAINTS tc LEFT JOIN information_schema.CHECK_CONSTRAINTS cc
	  ON cc.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA AND cc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME
	  WHERE tc.TABLE_SCHEMA = DATABASE() ORDER BY tc.TABLE_NAME, tc.CONSTRAINT_NAME`,
	"foreign_keys": `SELECT rc.TABLE_NAME AS table_name, rc.CONSTRAINT_NAME AS constraint_name,
	  rc.REFERENCED_TABLE_NAME AS referenced_table, rc.DELETE_RULE AS delete_rule
	  FROM information_schema.REFERENTIAL_CONSTRAINTS rc WHERE rc.CONSTRAINT_SCHEMA = DATABASE()
	  ORDER BY rc.TABLE_NAME, rc.CONSTRAINT_NAME`,
}

// Both ledgers: versioned migrations and the pre-AutoMigrate one-shots.
var ledgerQueries = map[string]string{
	"schema_migrations":     `SELECT version, name, applied_at FROM schema_migrations ORDER BY version`,
	"schema_pre_migrations": `SELECT name, started_at, completed_at FROM schema_pre_migrations ORDER BY name`,
}

func runDumpSchema(argv []string) error {
	fs := flag.NewFlagSet("dump-schema", flag.ExitOnError)
	url := fs.String("url", os.Getenv("SDJ_URL"), "postgresql:// or mysql:// URL")
	_ = fs.Parse(argv)
	db, dialect, err := openDB(*url)
	if err != nil {
		return err
	}
	queries := pgQueries
	if dialect == "mysql" {
		queries = mysqlQueries
	}
	out := map[string]any{"dialect": dialect}
	var version string
	if err := db.Raw("SELECT version()").Scan(&version).Error; err != nil {
		return err
	}
	out["server_version"] = version
	for _, set := range []map[string]string{queries, ledgerQueries} {
		for name, q := range set {
			rows, err := queryRows(db, q)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			out[name] = rows
		}
	}
	if dialect == "mysql" {
		ddl := map[string]string{}
		var tables []string
		if err := db.Raw("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME").Scan(&tables).Error; err != nil {
			return err
		}
		for _, t := range tables {
			var name, create string
			if err := db.Raw("SHOW CREATE TABLE `"+t+"`").Row().Scan(&name, &create); err != nil {
				return err
			}
			ddl[t] = create
		}
		out["show_create_table"] = ddl
	}
	return printJSON(out)
}

// queryRows returns every row as column -> text (NULL stays null), which is all a schema dump needs.
func queryRows(db *gorm.DB, q string) ([]map[string]*string, error) {
	rows, err := db.Raw(q).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	result := []map[string]*string{}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make(map[string]*string, len(cols))
		for i, c := range cols {
			if vals[i].Valid {
				v := vals[i].String
				row[c] = &v
			} else {
				row[c] = nil
			}
		}
		result = append(result, row)
	}
	return result, rows.Err()
}

package main

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	mysqldriver "github.com/go-sql-driver/mysql"
	jobs "github.com/jdziat/simple-durable-jobs/v4"
	"gorm.io/driver/mysql"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// openDB opens a GORM connection for a postgresql:// or mysql:// URL and reports the dialect.
func openDB(rawURL string) (*gorm.DB, string, error) {
	if rawURL == "" {
		return nil, "", fmt.Errorf("--url (or SDJ_URL) is required")
	}
	cfg := &gorm.Config{Logger: logger.Default.LogMode(logger.Silent)}
	switch {
	case strings.HasPrefix(rawURL, "postgres://"), strings.HasPrefix(rawURL, "postgresql://"):
		db, err := gorm.Open(postgres.Open(rawURL), cfg)
		return db, "postgres", err
	case strings.HasPrefix(rawURL, "mysql://"):
		dsn, err := mysqlDSN(rawURL)
		if err != nil {
			return nil, "", err
		}
		db, err := gorm.Open(mysql.Open(dsn), cfg)
		return db, "mysql", err
	default:
		return nil, "", fmt.Errorf("unsupported URL scheme (want postgresql:// or mysql://): %q", rawURL)
	}
}

// mysqlDSN turns mysql://user:pass@host:port/db into a go-sql-driver DSN with the UTC settings
// Migrate() insists on (a UTC session clock and a UTC driver loc; cmd/sdj does the same).
func mysqlDSN(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("bad MySQL URL: %w", err)
	}
	c := mysqldriver.NewConfig()
	c.User = u.User.Username()
	c.Passwd, _ = u.User.Password()
	c.Net = "tcp"
	c.Addr = u.Host
	c.DBName = strings.TrimPrefix(u.Path, "/")
	c.ParseTime = true
	c.Loc = time.UTC
	c.Params = map[string]string{"time_zone": "'+00:00'"}
	return c.FormatDSN(), nil
}

func openStorage(rawURL string) (*jobs.GormStorage, error) {
	db, _, err := openDB(rawURL)
	if err != nil {
		return nil, err
	}
	return jobs.NewGormStorage(db), nil
}

package config

// CheckMigrationMatchesJSON is checkMigrationMatchesJSON for the external
// test that runs it over core/extension/platform's definitions.
var CheckMigrationMatchesJSON = checkMigrationMatchesJSON

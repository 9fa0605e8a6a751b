package sqlite

import (
	"database/sql"
	"encoding/json"
	"log/slog"
	"reflect"
	"time"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/session"
)

// sessionColumns are read for every session; timestamps are cast to TEXT so
// the driver hands over the stored text in whichever form it was written.
// %s is the thread_id column, or NULL in a file created at v17, which has
// none (Store.cols fills it in).
const sessionColumns = `s.id, s.working_dir, s.name, s.description, s.user_set_name, s.session_type,
	CAST(s.created_at AS TEXT), CAST(s.updated_at AS TEXT), s.extension_data,
	s.total_tokens, s.input_tokens, s.output_tokens,
	s.accumulated_total_tokens, s.accumulated_input_tokens, s.accumulated_output_tokens,
	s.schedule_id, s.recipe_json, s.user_recipe_values_json,
	s.provider_name, s.model_config_json, s.goose_mode, %s,
	s.cache_read_tokens, s.cache_write_tokens, s.accumulated_cache_read_tokens, s.accumulated_cache_write_tokens,
	s.accumulated_cost, CAST(s.archived_at AS TEXT), s.project_id, s.parent_session_id`

// sessionRow receives sessionColumns. Every column goose may have left NULL
// (older migrations added some as nullable) is scanned as nullable.
type sessionRow struct {
	id, workingDir, name, description            sql.NullString
	userSetName                                  sql.NullBool
	sessionType, createdAt, updatedAt, extData   sql.NullString
	tokens                                       [10]sql.NullInt64
	scheduleID, recipe, recipeValues             sql.NullString
	providerName, modelConfig, gooseMode, thread sql.NullString
	cost                                         sql.NullFloat64
	archivedAt, projectID, parentID              sql.NullString
}

func (r *sessionRow) dest() []any {
	return []any{&r.id, &r.workingDir, &r.name, &r.description, &r.userSetName, &r.sessionType,
		&r.createdAt, &r.updatedAt, &r.extData,
		&r.tokens[0], &r.tokens[1], &r.tokens[2], &r.tokens[3], &r.tokens[4], &r.tokens[5],
		&r.scheduleID, &r.recipe, &r.recipeValues,
		&r.providerName, &r.modelConfig, &r.gooseMode, &r.thread,
		&r.tokens[6], &r.tokens[7], &r.tokens[8], &r.tokens[9],
		&r.cost, &r.archivedAt, &r.projectID, &r.parentID}
}

// session converts the row. Unreadable JSON columns read as absent, the way
// goose's from_row does, with a warning so the data loss is visible.
func (r *sessionRow) session(log *slog.Logger) session.Session {
	s := session.Session{
		ID:              r.id.String,
		WorkingDir:      r.workingDir.String,
		Name:            r.name.String,
		UserSetName:     r.userSetName.Bool,
		SessionType:     session.Type(r.sessionType.String),
		ExtensionData:   session.ExtensionData{},
		GooseMode:       r.gooseMode.String,
		ScheduleID:      nullString(r.scheduleID),
		ProviderName:    nullString(r.providerName),
		ThreadID:        nullString(r.thread),
		ProjectID:       nullString(r.projectID),
		ParentSessionID: nullString(r.parentID),
	}
	if r.cost.Valid {
		s.AccumulatedCost = &r.cost.Float64
	}
	if r.archivedAt.Valid { // unreadable reads as not archived, as in goose
		if t, err := session.ParseTimestamp(r.archivedAt.String); err == nil {
			s.ArchivedAt = &t
		} else {
			log.Warn("unreadable session timestamp", "session", s.ID, "column", "archived_at", "err", err)
		}
	}
	if s.Name == "" {
		s.Name = r.description.String
	}
	if s.SessionType == "" {
		s.SessionType = session.TypeUser
	}
	if s.GooseMode == "" {
		s.GooseMode = "auto"
	}
	s.CreatedAt = parseTime(log, s.ID, "created_at", r.createdAt)
	s.UpdatedAt = parseTime(log, s.ID, "updated_at", r.updatedAt)
	ptrs := []**int{&s.TotalTokens, &s.InputTokens, &s.OutputTokens,
		&s.AccumulatedTotalTokens, &s.AccumulatedInputTokens, &s.AccumulatedOutputTokens,
		&s.CacheReadTokens, &s.CacheWriteTokens, &s.AccumulatedCacheReadTokens, &s.AccumulatedCacheWriteTokens}
	for i, p := range ptrs {
		if r.tokens[i].Valid {
			v := int(r.tokens[i].Int64)
			*p = &v
		}
	}
	decodeJSON(log, s.ID, "extension_data", r.extData, &s.ExtensionData)
	if s.ExtensionData == nil {
		s.ExtensionData = session.ExtensionData{}
	}
	if r.recipe.Valid && json.Valid([]byte(r.recipe.String)) && r.recipe.String != "null" {
		s.Recipe = json.RawMessage(r.recipe.String)
	} else if r.recipe.Valid {
		log.Warn("session recipe_json is not JSON; reading it as none", "session", s.ID)
	}
	decodeJSON(log, s.ID, "user_recipe_values_json", r.recipeValues, &s.UserRecipeValues)
	var mc *model.Config
	decodeJSON(log, s.ID, "model_config_json", r.modelConfig, &mc)
	s.ModelConfig = mc
	return s
}

func nullString(v sql.NullString) *string {
	if !v.Valid {
		return nil
	}
	return &v.String
}

// parseTime reads either timestamp form; an unreadable one reads as the
// zero time with a warning rather than hiding the session.
func parseTime(log *slog.Logger, id, column string, v sql.NullString) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	t, err := session.ParseTimestamp(v.String)
	if err != nil {
		log.Warn("unreadable session timestamp", "session", id, "column", column, "err", err)
	}
	return t
}

func decodeJSON(log *slog.Logger, id, column string, v sql.NullString, into any) {
	if !v.Valid {
		return
	}
	if err := json.Unmarshal([]byte(v.String), into); err != nil {
		reflect.ValueOf(into).Elem().SetZero()
		log.Warn("unreadable session column; reading it as none", "session", id, "column", column, "err", err)
	}
}

/* session_report_text_json_csv.h - the session as a text, JSON or CSV report. */
#ifndef SM_SESSION_REPORT_TEXT_JSON_CSV_H
#define SM_SESSION_REPORT_TEXT_JSON_CSV_H

#include "session_edits_undo_redo.h"

typedef enum { SM_REPORT_TEXT, SM_REPORT_JSON, SM_REPORT_CSV } sm_report_format;

int sm_report_format_parse(const char *s, sm_report_format *out);
/* Caller frees. */
char *sm_report(const sm_session *s, sm_report_format f);

#endif

/* report_totals_per_processor.h - the session as a text, JSON or CSV report. */
#ifndef SM_REPORT_TOTALS_PER_PROCESSOR_H
#define SM_REPORT_TOTALS_PER_PROCESSOR_H

#include "session_edits_undo_redo.h"

typedef enum { SM_REPORT_TEXT, SM_REPORT_JSON, SM_REPORT_CSV } sm_report_format;

int sm_report_format_parse(const char *s, sm_report_format *out);
/* Caller frees. */
char *sm_report(const sm_session *s, sm_report_format f);

#endif

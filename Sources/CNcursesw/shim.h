/*
 * shim.h: the parts of ncursesw that Swift cannot import (macros), as values
 * computed by the C compiler, plus the ioctl that reads the window size.
 * Sources: ncurses man pages curs_attr(3X), curs_color(3X), curs_inopts(3X),
 * curs_getyx(3X); tty_ioctl(4) for TIOCGWINSZ.
 */
#ifndef PERCH_CNCURSESW_SHIM_H
#define PERCH_CNCURSESW_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

/* Video attributes (curs_attr(3X)). */
static const attr_t perch_A_NORMAL = A_NORMAL;
static const attr_t perch_A_BOLD = A_BOLD;
static const attr_t perch_A_REVERSE = A_REVERSE;
static const attr_t perch_A_DIM = A_DIM;
static const attr_t perch_A_UNDERLINE = A_UNDERLINE;

/* The attribute bits of color pair n (curs_color(3X) COLOR_PAIR). */
static inline attr_t perch_color_pair(int n) { return (attr_t)COLOR_PAIR(n); }

/* The colour pair of foreground `fg` on background `bg` (colour numbers; -1 for the terminal's
   default), made the first time and found after (ncurses 6.1's alloc_pair(3X), which reuses the
   least recently used pair when all are taken); -1 when none can be had. */
static inline int perch_alloc_pair(int fg, int bg) { return alloc_pair(fg, bg); }

/* How many colours and colour pairs the terminal has, once start_color ran (curs_color(3X)). */
static inline int perch_colors(void) { return COLORS; }
static inline int perch_color_pairs(void) { return COLOR_PAIRS; }

/* Screen size in rows and columns of a window (curs_getyx(3X) getmaxyx). */
static inline int perch_getmaxy(WINDOW *w) { return getmaxy(w); }
static inline int perch_getmaxx(WINDOW *w) { return getmaxx(w); }

/* The ncurses error and success values (curs_inopts(3X)). */
static const int perch_ERR = ERR;
static const int perch_OK = OK;

/* The terminal's size in rows and columns from TIOCGWINSZ; returns 0, or -1 when unknown. */
static inline int perch_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

/* Draws `count` bytes of UTF-8 `text` at row y, column x of window `win` with `attrs` and colour
   pair `pair` (curs_addstr(3X) mvwaddnstr); returns the column after them (curs_getyx(3X) getcurx). */
static inline int perch_put_n(WINDOW *win, int y, int x, const char *text, int count, attr_t attrs, int pair) {
    wattr_set(win, attrs, (short)(pair <= 255 ? pair : 0), &pair);
    mvwaddnstr(win, y, x, text, count);
    return getcurx(win);
}

/* Copies `count` wide characters from `text` into window `win` at row y, column x with `attrs`
   and colour pair `pair`, as complex characters (curs_getcchar(3X) setcchar, curs_add_wchstr(3X)
   mvwadd_wchnstr): the cells mvwaddnstr makes of the same text, without its decoding of UTF-8 one
   byte at a time. Each character must be one spacing character (wcwidth(3) 1 or 2). Returns the
   column after them; or -1, with nothing drawn, when one is not (a combining mark, a control),
   when they do not fit on the row or are more than 512. */
static inline int perch_put_wide(WINDOW *win, int y, int x, const wchar_t *text, int count, attr_t attrs, int pair) {
    cchar_t cells[512];
    if (count < 0 || count > 512 || x < 0) return -1;
    int end = x;
    for (int i = 0; i < count; i++) {
        int width = wcwidth(text[i]);
        if (width < 1) return -1;
        end += width;
        wchar_t one[2] = {text[i], L'\0'};
        if (setcchar(&cells[i], one, attrs, (short)(pair <= 255 ? pair : 0), &pair) != OK) return -1;
    }
    if (end > getmaxx(win)) return -1;
    wattr_set(win, attrs, (short)(pair <= 255 ? pair : 0), &pair);
    if (mvwadd_wchnstr(win, y, x, cells, count) != OK) return -1;
    return end;
}

/* Copies `count` printable ASCII bytes from `text` into window `win` at row y, column x with
   `attrs` and colour pair `pair`, as chtypes (curs_addchstr(3X) mvwaddchnstr): no conversion,
   wrapping or control-character handling, which waddstr does byte by byte. At most 1024 bytes.
   A pair above 255, which a chtype cannot hold, is drawn with mvwaddnstr and the extended pair. */
static inline int perch_put_ascii(WINDOW *win, int y, int x, const char *text, int count, attr_t attrs, int pair) {
    chtype cells[1024];
    if (count > 1024) count = 1024;
    if (pair > 255) {
        wattr_set(win, attrs, 0, &pair);
        return mvwaddnstr(win, y, x, text, count);
    }
    chtype style = (chtype)attrs | (chtype)COLOR_PAIR(pair);
    for (int i = 0; i < count; i++) cells[i] = (chtype)(unsigned char)text[i] | style;
    return mvwaddchnstr(win, y, x, cells, count);
}

/* Copies `count` blanks into window `win` at row y, column x with `attrs` and colour pair `pair`,
   as chtypes (curs_addchstr(3X) mvwaddchnstr): a cell filled with the pair's background colour,
   which ncurses may send as erase-characters (ECH) on a terminal with back_color_erase. At most 1024. */
static inline int perch_put_blanks(WINDOW *win, int y, int x, int count, attr_t attrs, int pair) {
    static const char spaces[1024] = {[0 ... 1023] = ' '};
    return perch_put_ascii(win, y, x, spaces, count, attrs, pair);
}

/* The standard screen, the current-screen image and the virtual screen that doupdate sends
   (curs_initscr(3X), curs_refresh(3X), curs_variables(3X)). */
static inline WINDOW *perch_stdscr(void) { return stdscr; }
static inline WINDOW *perch_curscr(void) { return curscr; }
static inline WINDOW *perch_newscr(void) { return newscr; }

/* Whether terminfo has an entry for `term` (curs_terminfo(3X) setupterm), without printing. */
static inline int perch_terminfo_knows(const char *term) {
    int status = 0;
    if (setupterm(term, STDOUT_FILENO, &status) != OK) return 0;
    del_curterm(cur_term);
    return 1;
}

/* terminfo's `colors` for `term` (curs_terminfo(3X) tigetnum): the number, -1 when absent,
   -2 when terminfo has no entry for `term`. */
static inline int perch_terminfo_colors(const char *term) {
    int status = 0;
    if (setupterm(term, STDOUT_FILENO, &status) != OK) return -2;
    int colors = tigetnum("colors");
    del_curterm(cur_term);
    return colors < 0 ? -1 : colors;
}

/* Whether terminfo's entry for `term` has the string capability `name` (curs_terminfo(3X)
   tigetstr; user-defined capabilities such as Ms included): 1, 0 when absent, -2 without an entry. */
static inline int perch_terminfo_has_string(const char *term, const char *name) {
    int status = 0;
    if (setupterm(term, STDOUT_FILENO, &status) != OK) return -2;
    char *value = tigetstr(name);
    int found = value != NULL && value != (char *)-1;
    del_curterm(cur_term);
    return found;
}

/* Whether the terminal ncurses runs on has an alternate screen to leave (terminfo's rmcup,
   curs_terminfo(3X) tigetstr): 1, else 0. Call after newterm. */
static inline int perch_has_alternate_screen(void) {
    char *value = tigetstr("rmcup");
    return value != NULL && value != (char *)-1 && value[0] != 0;
}

/* Starts ncurses on standard output and input (curs_initscr(3X) newterm); NULL on failure. */
static inline SCREEN *perch_newterm(const char *term) { return newterm(term, stdout, stdin); }

#endif

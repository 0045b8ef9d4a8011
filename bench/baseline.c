/*
 * The floor for Perch's start-up figure: an empty ncursesw program that does what
 * `perch --exit-after-first-frame` does with the terminal and nothing else: set the locale,
 * start ncurses, draw one full frame, restore the terminal and exit 0.
 * bench.py builds it with `cc -O2 baseline.c -lncursesw`.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>

int main(void) {
    setlocale(LC_ALL, "");
    initscr();
    raw();
    noecho();
    curs_set(0);
    int rows, columns;
    getmaxyx(stdscr, rows, columns);
    /* About what Perch's first frame holds: a title, a few lines of text, a rule, a tab bar. */
    attron(A_BOLD);
    mvaddstr(0, 1, "Overview");
    attroff(A_BOLD);
    mvaddstr(2, 3, "No account chosen yet.");
    mvaddstr(3, 3, "4 accounts available.");
    mvaddstr(5, 3, "Switches so far: 0");
    mvaddstr(7, 3, "Hold the Overview tab (or the 1 key), or press a, to switch account.");
    for (int column = 0; column < columns; column++) mvaddstr(rows - 2, column, "\u2500");
    attron(A_REVERSE | A_BOLD);
    mvaddstr(rows - 1, 0, "      Overview      ");
    attroff(A_REVERSE | A_BOLD);
    mvaddstr(rows - 1, 26, "Catalog             Stats             Settings");
    refresh();
    curs_set(1);
    endwin();
    return 0;
}

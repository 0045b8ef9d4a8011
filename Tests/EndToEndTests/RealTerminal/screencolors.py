"""Colours read from a real terminal's pixels: a window's screenshot (X's XWD format, as `xwd`
writes it), its character cells, the text and attributes in them (from SGR-coloured text, as
xterm's print-immediate and kitty's `get-text --ansi` give it), and WCAG 2.2 contrast ratios
between the glyphs' colour and the cell's background.

    shot = Screenshot.parse(open("window.xwd", "rb").read())
    grid = CellGrid(shot, cols=80, rows=24)
    cells = parse_sgr_screen(dump_text, cols=80)       # one list of Cell per row
    for run in measure_runs(grid, cells): print(run)  # text, fg, bg, bold, ratio, per run

Python 3's standard library only; `xwd` is in Debian's x11-apps.
"""
import collections
import re
import struct
import unicodedata


def relative_luminance(rgb):
    """WCAG 2.2 relative luminance of an sRGB colour (0–255 a channel): 0 black, 1 white."""

    def linear(channel):
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = rgb
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast_ratio(a, b):
    """WCAG 2.2 contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def hex_colour(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


class Screenshot:
    """A TrueColor image read from an XWD file (the X Window Dump format of `xwd`, version 7:
    a big-endian header of 25 CARD32s and the window's name, the colour map, then the pixels
    in Z format). Only TrueColor/DirectColor images of 24 or 32 bits a pixel are read."""

    HEADER = struct.Struct(">25I")

    def __init__(self, width, height, pixel, band=None):
        self.width, self.height = width, height
        self.pixel = pixel  # pixel(x, y) -> (r, g, b)
        self.band = band  # band(y0, y1) -> the raw bytes of pixel rows y0..<y1, to compare


    @classmethod
    def parse(cls, data):
        fields = cls.HEADER.unpack_from(data, 0)
        (header_size, version, pixmap_format, depth, width, height, _xoffset, byte_order, _unit, _bit_order, _pad,
         bits_per_pixel, bytes_per_line, visual_class, red_mask, green_mask, blue_mask, _bits_rgb, _entries, ncolors,
         *_window) = fields
        if version != 7 or pixmap_format != 2:
            raise ValueError(f"not an XWD version 7 Z-format image (version {version}, format {pixmap_format})")
        if bits_per_pixel not in (24, 32) or visual_class not in (4, 5):
            raise ValueError(f"only TrueColor images of 24 or 32 bits a pixel are read ({bits_per_pixel} bits, class {visual_class})")
        start = header_size + ncolors * 12
        step = bits_per_pixel // 8
        order = "little" if byte_order == 0 else "big"
        shifts = [(mask, (mask & -mask).bit_length() - 1) for mask in (red_mask, green_mask, blue_mask)]
        if len(data) < start + bytes_per_line * height:
            raise ValueError("the XWD image is shorter than its header says")

        def pixel(x, y):
            offset = start + y * bytes_per_line + x * step
            value = int.from_bytes(data[offset:offset + step], order)
            return tuple((value & mask) >> shift for mask, shift in shifts)

        def band(first, end):
            return data[start + first * bytes_per_line:start + end * bytes_per_line]

        return cls(width, height, pixel, band)


class CellGrid:
    """The character cells of a terminal window's screenshot: `cols` × `rows` cells of equal
    size inside a border of `border` pixels (xterm's internalBorder is 2; kitty's padding is
    set to 0), from the top left corner (what is left over at the right and bottom is the
    terminal's)."""

    def __init__(self, shot, cols, rows, border=0):
        self.shot, self.cols, self.rows = shot, cols, rows
        self.cell_width = (shot.width - 2 * border) // cols
        self.cell_height = (shot.height - 2 * border) // rows
        self.left = self.top = border

    def rows_band(self, first, last):
        """The raw pixels of the 1-based rows `first` through `last`, to compare two shots."""
        return self.shot.band(self.top + (first - 1) * self.cell_height, self.top + last * self.cell_height)

    def pixels(self, col, row):
        """The colours of the pixels of the 0-based cell (col, row)."""
        x0, y0 = self.left + col * self.cell_width, self.top + row * self.cell_height
        return [self.shot.pixel(x, y) for y in range(y0, y0 + self.cell_height) for x in range(x0, x0 + self.cell_width)]

    def window_background(self):
        """The colour most of the window's border and corner cells show: the terminal's default
        background (no cell of a full-screen program draws over all four corners)."""
        corners = collections.Counter()
        for col, row in ((0, 0), (self.cols - 1, 0), (0, self.rows - 1), (self.cols - 1, self.rows - 1)):
            corners.update(self.pixels(col, row))
        return corners.most_common(1)[0][0]


Cell = collections.namedtuple("Cell", "char bold reverse dim colour")


SGR = re.compile(r"\x1b\[([0-9;:]*)m")
OTHER_ESCAPE = re.compile(r"\x1b(?:\[[0-9;:?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|#[0-9]|[()][0-9A-Za-z]|[=>])")


def parse_sgr_screen(text, cols, per_cell=False):
    """One list of `Cell`s a row (padded with blanks to `cols`) from screen text with SGR
    sequences: bold (1), dim (2), reverse (7), and whether any colour is set (30–37, 90–97,
    38, 40–47, 100–107, 48). Other escape sequences are dropped; a wide character takes two
    cells (the second a blank of its attributes).

    With `per_cell` (xterm's print-immediate), a sequence applies to the one character after
    it: xterm writes one before every cell with attributes, and none (not even SGR 0) before a
    plain cell that follows one (xterm 379, with no colour set)."""
    rows = []
    for line in text.replace("\r", "").split("\n"):
        bold = dim = reverse = colour = False
        cells = []
        position = 0
        while position < len(line):
            match = SGR.match(line, position)
            if match:
                codes = [int(code or 0) for code in re.split("[;:]", match.group(1))] if match.group(1) else [0]
                index = 0
                while index < len(codes):
                    code = codes[index]
                    if code == 0:
                        bold = dim = reverse = colour = False
                    elif code == 1:
                        bold = True
                    elif code == 2:
                        dim = True
                    elif code == 22:
                        bold = dim = False
                    elif code == 7:
                        reverse = True
                    elif code == 27:
                        reverse = False
                    elif 30 <= code <= 37 or 90 <= code <= 97 or 40 <= code <= 47 or 100 <= code <= 107:
                        colour = True
                    elif code in (38, 48):
                        colour = True
                        index += 2 if index + 1 < len(codes) and codes[index + 1] == 5 else 4
                    elif code in (39, 49):
                        pass
                    index += 1
                position = match.end()
                continue
            other = OTHER_ESCAPE.match(line, position)
            if other:
                position = other.end()
                continue
            char = line[position]
            position += 1
            if unicodedata.category(char) in ("Mn", "Me", "Cf") and cells:
                continue
            cells.append(Cell(char, bold, reverse, dim, colour))
            if unicodedata.east_asian_width(char) in ("W", "F"):
                cells.append(Cell(" ", bold, reverse, dim, colour))
            if per_cell:
                bold = dim = reverse = colour = False
        cells = cells[:cols] + [Cell(" ", False, False, False, False)] * max(0, cols - len(cells))
        rows.append(cells)
    return rows


def glyph_colour(pixels, background):
    """The colour of the glyphs among `pixels` drawn on `background`: of the colours that are
    not the background and appear at least twice (a glyph's solid stem, not one smoothed edge
    pixel), the one of highest contrast with it. Edge pixels are blends of the glyph's colour
    and the background, of lower contrast than the glyph's own. None where no glyph is drawn."""
    counts = collections.Counter(colour for colour in pixels if colour != background)
    frequent = [colour for colour, count in counts.items() if count >= 2] or list(counts)
    if not frequent:
        return None
    return max(frequent, key=lambda colour: contrast_ratio(colour, background))


def is_graphic(char):
    """Box-drawing and block characters (U+2500–U+259F): rules and frames, not text."""
    return "\u2500" <= char <= "\u259f"


def measure_runs(grid, rows):
    """Every run of text on screen as drawn: on each row, consecutive non-blank cells of the
    same attributes (blanks inside a run of the same attributes join it), each with its text,
    the background most of its cells show, its glyphs' colour from all its pixels, and the
    contrast ratio between them. Runs of box-drawing characters only are marked `graphic`."""
    runs = []
    for row_index, cells in enumerate(rows[:grid.rows]):
        col = 0
        while col < len(cells):
            cell = cells[col]
            if cell.char == " " and not cell.reverse:
                col += 1
                continue
            key = (cell.bold, cell.reverse, cell.dim, cell.colour)
            end = col
            while end < len(cells) and (cells[end].bold, cells[end].reverse, cells[end].dim, cells[end].colour) == key:
                end += 1
            # Trailing blanks without reverse video are not part of the run.
            last = end
            while last > col and cells[last - 1].char == " " and not cell.reverse:
                last -= 1
            text = "".join(c.char for c in cells[col:last])
            backgrounds = collections.Counter()
            pixels = []
            for index in range(col, last):
                cell_pixels = grid.pixels(index, row_index)
                backgrounds[collections.Counter(cell_pixels).most_common(1)[0][0]] += 1
                if cells[index].char != " ":
                    pixels.extend(cell_pixels)
            background = backgrounds.most_common(1)[0][0]
            foreground = glyph_colour(pixels, background)
            if text.strip():
                runs.append({
                    "row": row_index + 1, "column": col + 1, "text": text, "bold": cell.bold, "reverse": cell.reverse,
                    "dim": cell.dim, "coloured": cell.colour, "graphic": all(is_graphic(c) or c == " " for c in text),
                    "background": hex_colour(background), "foreground": hex_colour(foreground) if foreground else None,
                    "ratio": round(contrast_ratio(foreground, background), 2) if foreground else None})
            col = end
    return runs

package io.planlint.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the listener needs, so that the jar depends on nothing but Spark: quoting for the
 * History-Server-shaped answer it writes, and a reader for planlint's NDJSON output lines (objects,
 * arrays, strings, numbers, true/false/null). Bad input is an {@link IllegalArgumentException},
 * never a hang: the reader only moves forward and refuses nesting deeper than 64.
 */
final class Json {
  private Json() {}

  /** Appends {@code s} as a JSON string (quotes included); null is written as null. */
  static void quote(StringBuilder out, String s) {
    if (s == null) {
      out.append("null");
      return;
    }
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        default:
          if (c < 0x20 || c == '\u2028' || c == '\u2029' || Character.isSurrogate(c) && !validSurrogate(s, i)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }

  /** A lone surrogate would not survive UTF-8 encoding: it is escaped instead. */
  private static boolean validSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder(s == null ? 4 : s.length() + 2);
    quote(b, s);
    return b.toString();
  }

  /** Parses one JSON value: Map, List, String, Double/Long, Boolean or null. */
  static Object parse(String text) {
    Reader r = new Reader(text);
    r.space();
    Object v = r.value(0);
    r.space();
    if (r.pos != text.length()) throw new IllegalArgumentException("trailing characters at " + r.pos);
    return v;
  }

  private static final class Reader {
    final String s;
    int pos;

    Reader(String s) {
      this.s = s;
    }

    void space() {
      while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) pos++;
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException(what + " at " + pos);
    }

    Object value(int depth) {
      if (depth > 64) throw error("nesting too deep");
      if (pos >= s.length()) throw error("unexpected end");
      char c = s.charAt(pos);
      if (c == '{') return object(depth);
      if (c == '[') return array(depth);
      if (c == '"') return string();
      if (s.startsWith("true", pos)) { pos += 4; return Boolean.TRUE; }
      if (s.startsWith("false", pos)) { pos += 5; return Boolean.FALSE; }
      if (s.startsWith("null", pos)) { pos += 4; return null; }
      return number();
    }

    Map<String, Object> object(int depth) {
      Map<String, Object> m = new LinkedHashMap<>();
      pos++;
      space();
      if (pos < s.length() && s.charAt(pos) == '}') { pos++; return m; }
      while (true) {
        space();
        if (pos >= s.length() || s.charAt(pos) != '"') throw error("expected a key");
        String k = string();
        space();
        if (pos >= s.length() || s.charAt(pos) != ':') throw error("expected ':'");
        pos++;
        space();
        m.put(k, value(depth + 1));
        space();
        if (pos >= s.length()) throw error("unexpected end");
        char c = s.charAt(pos++);
        if (c == '}') return m;
        if (c != ',') throw error("expected ',' or '}'");
      }
    }

    List<Object> array(int depth) {
      List<Object> l = new ArrayList<>();
      pos++;
      space();
      if (pos < s.length() && s.charAt(pos) == ']') { pos++; return l; }
      while (true) {
        space();
        l.add(value(depth + 1));
        space();
        if (pos >= s.length()) throw error("unexpected end");
        char c = s.charAt(pos++);
        if (c == ']') return l;
        if (c != ',') throw error("expected ',' or ']'");
      }
    }

    String string() {
      StringBuilder b = new StringBuilder();
      pos++;
      while (true) {
        if (pos >= s.length()) throw error("unterminated string");
        char c = s.charAt(pos++);
        if (c == '"') return b.toString();
        if (c != '\\') { b.append(c); continue; }
        if (pos >= s.length()) throw error("unterminated string");
        char e = s.charAt(pos++);
        switch (e) {
          case '"': b.append('"'); break;
          case '\\': b.append('\\'); break;
          case '/': b.append('/'); break;
          case 'b': b.append('\b'); break;
          case 'f': b.append('\f'); break;
          case 'n': b.append('\n'); break;
          case 'r': b.append('\r'); break;
          case 't': b.append('\t'); break;
          case 'u':
            if (pos + 4 > s.length()) throw error("bad \\u escape");
            try {
              b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            } catch (NumberFormatException x) {
              throw error("bad \\u escape");
            }
            pos += 4;
            break;
          default: throw error("bad escape");
        }
      }
    }

    Object number() {
      int start = pos;
      while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) pos++;
      String n = s.substring(start, pos);
      if (n.isEmpty()) throw error("unexpected character");
      try {
        if (n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0) return Long.parseLong(n);
        return Double.parseDouble(n);
      } catch (NumberFormatException x) {
        throw error("bad number");
      }
    }
  }
}

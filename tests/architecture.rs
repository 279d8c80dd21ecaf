//! ARCHITECTURE.md's module table says, for every row, which of the crate's modules the row's
//! code "knows about". This test derives that set from the source and compares: a row that
//! misses a module its code uses, or names one its code does not use, fails here.
//!
//! What counts (ARCHITECTURE.md says it above the table):
//! - the library's code only: the files `src/lib.rs` reaches through `mod` declarations, less
//!   every `#[cfg(test)]` item (`mod tests { ... }`, `mod tests;`), so tests/ and unit tests
//!   may use anything;
//! - a use is a path that names a module of the crate: in a `use` declaration, or in code
//!   (`crate::x::y`, `super::y`, a child module, or a name a `use` brought in); it counts
//!   for the module that holds the item, found by following `use` declarations (re-exports
//!   such as `search::Stats` count for `search::stats`); a module imported whole counts
//!   only through the paths that go through it, or for itself if none does;
//! - `#[macro_export]` macros live at the crate root but count for the module that defines
//!   them: `crate::tell!(...)` and `say!(...)` are uses of `output`;
//! - a row's own files, and the crate root (lib.rs), are not counted.
//!
//! How the column is read: the text in parentheses is a note and is dropped; the rest,
//! split at commas and semicolons, is module names, backticks optional: `lab::spec` or
//! `games/chess` from the crate root, or one word: a sibling of the row's module where
//! there is one (`spec` in a lab/ row), else a top-level module, else a child (`config` in
//! search/mod.rs's row); `games/*` is any game; `nothing` is the empty set. A name covers
//! its submodules (`search` covers `search::tt`), so a row may name a whole layer or its
//! parts, except in a row inside it: there `search` is search/mod.rs alone, and the row
//! names the siblings it uses. Every module used must be covered, and every name must
//! cover a module used.
//!
//! `ARCHITECTURE_DUMP=1 cargo test --test integration -- architecture:: --nocapture` prints each row's
//! modules as the code uses them.
//!
//! Paths are found by a small scanner, not by the compiler: comments and string literals
//! are removed first, and a `use` inside a function counts for the whole file. Code that
//! reaches a module without naming it (a method called on a value) is not a use.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module's path from the crate root (`["search", "tt"]`); the root is empty.
type ModPath = Vec<String>;

fn render(m: &[String]) -> String {
    if m.is_empty() {
        "crate".to_owned()
    } else {
        m.join("::")
    }
}

/// `text` with comments, string and character literals blanked out (lifetimes kept).
fn strip_comments_and_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(i + k).copied().unwrap_or('\0');
        let prev_ident = i > 0 && ident(c[i - 1]);
        if at(0) == '/' && at(1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if at(0) == '/' && at(1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if !prev_ident && (at(0) == 'r' || (at(0) == 'b' && at(1) == 'r')) && {
            let start = if at(0) == 'r' { 1 } else { 2 };
            let mut k = start;
            while at(k) == '#' {
                k += 1;
            }
            at(k) == '"'
        } {
            // A raw string: r"..." or r#"..."#, possibly b-prefixed.
            let start = if at(0) == 'r' { 1 } else { 2 };
            let mut hashes = 0;
            while at(start + hashes) == '#' {
                hashes += 1;
            }
            i += start + hashes + 1;
            while i < c.len() {
                if c[i] == '"' && (0..hashes).all(|h| c.get(i + 1 + h) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if at(0) == '"' || (!prev_ident && matches!(at(0), 'b' | 'c') && at(1) == '"') {
            i += if at(0) == '"' { 1 } else { 2 };
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if at(0) == '\'' && (at(1) == '\\' || at(2) == '\'') {
            // A character literal ('x', '\n', '\u{..}'); a lifetime ('a) has no closing quote.
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The index just past the item that starts at or after `from`: its `;` or its `{ ... }`
/// (a `;` or `{` within parentheses or brackets, as in `-> [u8; 4]`, ends nothing).
fn item_end(s: &[u8], from: usize) -> usize {
    let mut i = from;
    let mut nesting = 0_i32;
    while i < s.len() && !(nesting == 0 && (s[i] == b';' || s[i] == b'{')) {
        match s[i] {
            b'(' | b'[' => nesting += 1,
            b')' | b']' => nesting -= 1,
            _ => {}
        }
        i += 1;
    }
    if i < s.len() && s[i] == b'{' {
        let mut depth = 0;
        while i < s.len() {
            match s[i] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    (i + 1).min(s.len())
}

/// `code` (already stripped) without its `#[cfg(test)]` and `#[cfg(all(test, ...))]` items.
fn drop_test_items(code: &str) -> String {
    let mut s = code.to_owned();
    loop {
        let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        if !compact.contains("#[cfg(test)]") && !compact.contains("#[cfg(all(test") {
            return s;
        }
        let bytes = s.as_bytes();
        let mut found = None;
        let mut i = 0;
        while let Some(off) = s[i..].find("#[") {
            let start = i + off;
            let close = s[start..].find(']').map_or(s.len(), |k| start + k);
            let attr: String = s[start..close]
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if attr == "#[cfg(test)" || attr.starts_with("#[cfg(all(test") {
                found = Some((start, close + 1));
                break;
            }
            i = start + 2;
        }
        let (start, mut after) = found.expect("a test attribute the scan can find");
        // Further attributes of the same item.
        loop {
            let rest = &s[after..];
            let trimmed = rest.trim_start();
            if trimmed.starts_with("#[") {
                let at = after + (rest.len() - trimmed.len());
                after = s[at..].find(']').map_or(s.len(), |k| at + k + 1);
            } else {
                break;
            }
        }
        assert_test_item(&s[after..]);
        let end = item_end(bytes, after);
        s.replace_range(start..end, " ");
    }
}

/// Keywords that start an item `drop_test_items` can cut out whole.
const ITEM_KEYWORDS: [&str; 12] = [
    "mod",
    "fn",
    "use",
    "impl",
    "const",
    "static",
    "struct",
    "enum",
    "type",
    "trait",
    "unsafe",
    "macro_rules",
];

/// Panics unless `rest` (the code after a `#[cfg(test)]` and the item's other attributes)
/// starts an item: a test attribute on a field, variant, arm or expression would make
/// `item_end` cut the code after it, and the scan would pass on code it never read.
fn assert_test_item(rest: &str) {
    let mut words = rest
        .split(|c: char| !is_ident_char(c))
        .filter(|w| !w.is_empty());
    let first = words.next().unwrap_or_default();
    let keyword = if first == "pub" {
        // `pub`, `pub(crate)`, `pub(super)`, `pub(in path)`: the keyword is the first word
        // after the visibility's parentheses.
        let after = rest.trim_start()["pub".len()..].trim_start();
        let after = match after.strip_prefix('(') {
            Some(inner) => inner.split_once(')').map_or("", |(_, tail)| tail),
            None => after,
        };
        after
            .split(|c: char| !is_ident_char(c))
            .find(|w| !w.is_empty())
            .unwrap_or_default()
    } else {
        first
    };
    assert!(
        ITEM_KEYWORDS.contains(&keyword),
        "a test attribute on something other than an item, which this scan cannot cut out: \
         {:?}",
        rest.chars().take(80).collect::<String>()
    );
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a `use` tree (`a::{b, c::{self, d as e}}`): each with the name it binds
/// (`None` for a glob).
fn expand_use_tree(tree: &str) -> Vec<(Vec<String>, Option<String>)> {
    fn split_top(s: &str) -> Vec<String> {
        let mut items = Vec::new();
        let mut depth = 0;
        let mut cur = String::new();
        for ch in s.chars() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if ch == ',' && depth == 0 {
                items.push(std::mem::take(&mut cur));
            } else {
                cur.push(ch);
            }
        }
        items.push(cur);
        items.into_iter().filter(|i| !i.trim().is_empty()).collect()
    }
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, Option<String>)>) {
        for item in split_top(tree) {
            let item = item.trim();
            if let Some(brace) = item.find('{') {
                let head: Vec<String> = item[..brace]
                    .split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect();
                let inner = item[brace + 1..].trim_end();
                let inner = inner.strip_suffix('}').unwrap_or(inner);
                let mut p = prefix.to_vec();
                p.extend(head);
                walk(&p, inner, out);
            } else {
                let (path, alias) = match item.split_once(" as ") {
                    Some((p, a)) => (p.trim(), Some(a.trim().to_owned())),
                    None => (item, None),
                };
                let mut p = prefix.to_vec();
                p.extend(
                    path.split("::")
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned),
                );
                if p.last().is_some_and(|l| l == "*") {
                    p.pop();
                    out.push((p, None));
                } else {
                    if p.last().is_some_and(|l| l == "self") {
                        p.pop();
                    }
                    let bound = alias.or_else(|| p.last().cloned());
                    out.push((p, bound));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&[], tree, &mut out);
    out
}

/// One source file of the library, scanned.
struct SourceFile {
    /// Path under src/, with `/`.
    rel: String,
    module: ModPath,
    /// `use` declarations: the path as written and the name bound (`None` for a glob).
    uses: Vec<(Vec<String>, Option<String>)>,
    /// Paths in code outside `use` declarations, and whether each names a macro (`x!`).
    paths: Vec<(Vec<String>, bool)>,
    /// Child modules declared with `mod x;`.
    children: BTreeSet<String>,
    /// `#[macro_export]` macros defined here.
    exported_macros: BTreeSet<String>,
    /// Whether this is a module written inline (`mod name { ... }`) in the file `rel`.
    inline: bool,
}

/// The inline modules of `code` (`mod name { ... }`, tests already dropped) cut out: the
/// code left, and each inline module's name and body.
fn cut_inline_modules(code: &str) -> (String, Vec<(String, String)>) {
    let mut left = String::with_capacity(code.len());
    let mut inner = Vec::new();
    let mut from = 0;
    let mut i = 0;
    while let Some(off) = code[i..].find("mod") {
        let at = i + off;
        i = at + 3;
        let before_ok = at == 0 || !code[..at].ends_with(is_ident_char);
        let after = &code[at + 3..];
        if !before_ok || !after.starts_with(char::is_whitespace) {
            continue;
        }
        let after = after.trim_start();
        let name: String = after.chars().take_while(|&c| is_ident_char(c)).collect();
        if name.is_empty() || !after[name.len()..].trim_start().starts_with('{') {
            continue;
        }
        let end = item_end(code.as_bytes(), at);
        let open = at + code[at..].find('{').expect("a block");
        left.push_str(&code[from..at]);
        inner.push((name, code[open + 1..end - 1].to_owned()));
        from = end;
        i = end;
    }
    left.push_str(&code[from..]);
    (left, inner)
}

fn scan_file(rel: &str, module: ModPath, text: &str) -> Vec<SourceFile> {
    let code = drop_test_items(&strip_comments_and_literals(text));
    scan_unit(rel, module, &code)
}

/// The module whose (stripped) code is `code`, and the inline modules inside it.
fn scan_unit(rel: &str, module: ModPath, code: &str) -> Vec<SourceFile> {
    let (code, inline) = cut_inline_modules(code);
    let mut units = Vec::new();
    for (name, body) in inline {
        let mut m = module.clone();
        m.push(name);
        units.extend(scan_unit(rel, m, &body));
    }
    let mut uses = Vec::new();
    let mut rest = String::with_capacity(code.len());
    let mut i = 0;
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    let mut k = 0;
    // `use` declarations, cut out of the code.
    while k < chars.len() {
        let (at, ch) = chars[k];
        let word_start = (k == 0 || !is_ident_char(chars[k - 1].1)) && ch == 'u';
        if word_start
            && code[at..].starts_with("use")
            && code[at + 3..].starts_with(|c: char| c.is_whitespace())
        {
            let end = code[at..].find(';').map_or(code.len(), |e| at + e);
            rest.push_str(&code[i..at]);
            uses.extend(expand_use_tree(&code[at + 3..end]));
            i = end + 1;
            while k < chars.len() && chars[k].0 < i {
                k += 1;
            }
            continue;
        }
        k += 1;
    }
    rest.push_str(&code[i.min(code.len())..]);

    // Paths: identifiers joined by `::` (generic arguments end a path).
    let c: Vec<char> = rest.chars().collect();
    let mut paths = Vec::new();
    let mut j = 0;
    while j < c.len() {
        let starts = (c[j] == '$' || is_ident_char(c[j]))
            && (j == 0 || !(is_ident_char(c[j - 1]) || c[j - 1] == ':' || c[j - 1] == '$'));
        if !starts {
            j += 1;
            continue;
        }
        let mut segs = Vec::new();
        loop {
            let s = j;
            if c.get(j) == Some(&'$') {
                j += 1;
            }
            while j < c.len() && is_ident_char(c[j]) {
                j += 1;
            }
            segs.push(c[s..j].iter().collect::<String>());
            let mut t = j;
            while t < c.len() && c[t].is_whitespace() {
                t += 1;
            }
            if c.get(t) == Some(&':') && c.get(t + 1) == Some(&':') {
                let mut u = t + 2;
                while u < c.len() && c[u].is_whitespace() {
                    u += 1;
                }
                if u < c.len() && is_ident_char(c[u]) {
                    j = u;
                    continue;
                }
            }
            break;
        }
        let is_macro = c.get(j) == Some(&'!') && c.get(j + 1) != Some(&'=');
        if segs.len() > 1 || is_macro {
            paths.push((segs, is_macro));
        }
    }

    let words: Vec<&str> = code
        .split(|ch: char| !is_ident_char(ch) && ch != '!' && ch != ';')
        .filter(|w| !w.is_empty())
        .collect();
    let mut children = BTreeSet::new();
    for w in words.windows(2) {
        if w[0] == "mod"
            && let Some(name) = w[1].strip_suffix(';')
        {
            children.insert(name.to_owned());
        }
    }
    let mut exported_macros = BTreeSet::new();
    let compact = code.replace(char::is_whitespace, "");
    for piece in compact.split("#[macro_export]macro_rules!").skip(1) {
        let name: String = piece.chars().take_while(|&ch| is_ident_char(ch)).collect();
        exported_macros.insert(name);
    }
    units.push(SourceFile {
        rel: rel.to_owned(),
        module,
        uses,
        paths,
        children,
        exported_macros,
        inline: false,
    });
    let n = units.len();
    for u in &mut units[..n - 1] {
        u.inline = true;
    }
    units
}

/// The library's files: those lib.rs reaches through `mod` declarations outside tests.
fn library_files(src: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut queue = vec![("lib.rs".to_owned(), ModPath::new())];
    while let Some((rel, module)) = queue.pop() {
        let text =
            std::fs::read_to_string(src.join(&rel)).unwrap_or_else(|e| panic!("src/{rel}: {e}"));
        let units = scan_file(&rel, module.clone(), &text);
        let children = units.last().expect("a file's own module").children.clone();
        let dir = if rel == "lib.rs" || rel.ends_with("/mod.rs") {
            rel.rsplit_once('/')
                .map_or(String::new(), |(d, _)| format!("{d}/"))
        } else {
            format!("{}/", rel.trim_end_matches(".rs"))
        };
        for child in &children {
            let mut m = module.clone();
            m.push(child.clone());
            let flat = format!("{dir}{child}.rs");
            let nested = format!("{dir}{child}/mod.rs");
            let path = if src.join(&flat).is_file() {
                flat
            } else {
                nested
            };
            queue.push((path, m));
        }
        files.extend(units);
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    files
}

/// What a name bound in a module stands for: a path from the crate root, or something
/// outside the crate.
#[derive(Clone, PartialEq)]
enum Binding {
    Crate(Vec<String>),
    Outside,
}

struct Crate {
    modules: BTreeSet<ModPath>,
    /// Per module, the names its `use` declarations and `mod` declarations bind.
    bindings: BTreeMap<ModPath, BTreeMap<String, Binding>>,
    /// Exported macro name -> the module that defines it.
    macros: BTreeMap<String, ModPath>,
}

impl Crate {
    /// `path` as written in `module`, from the crate root; `None` if it leaves the crate.
    fn absolute(&self, module: &ModPath, path: &[String]) -> Option<Vec<String>> {
        let first = path.first()?;
        let mut base;
        let mut rest = path;
        match first.as_str() {
            "crate" | "$crate" => {
                base = Vec::new();
                rest = &path[1..];
            }
            "super" | "self" => {
                base = module.clone();
                while let Some(seg) = rest.first() {
                    match seg.as_str() {
                        "super" => {
                            base.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
            }
            name => match self.bindings.get(module).and_then(|b| b.get(name)) {
                Some(Binding::Crate(target)) => {
                    base = target.clone();
                    rest = &path[1..];
                }
                _ => return None,
            },
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The module that holds what the absolute `path` names, following `use` declarations;
    /// and whether `path` names that module itself rather than an item in it.
    fn holder(&self, path: &[String], depth: usize) -> (ModPath, bool) {
        let mut k = path.len();
        while !self.modules.contains(&path[..k]) {
            k -= 1;
        }
        let module = path[..k].to_vec();
        if k == path.len() {
            return (module, true);
        }
        if depth < 16
            && let Some(Binding::Crate(target)) =
                self.bindings.get(&module).and_then(|b| b.get(&path[k]))
        {
            let mut next = target.clone();
            next.extend(path[k + 1..].iter().cloned());
            return self.holder(&next, depth + 1);
        }
        (module, false)
    }

    /// The modules `file`'s code uses.
    fn used_by(&self, file: &SourceFile) -> BTreeSet<ModPath> {
        let mut used = BTreeSet::new();
        // Module imports count through the paths that go through them.
        let mut module_imports: BTreeMap<String, ModPath> = BTreeMap::new();
        for (path, bound) in &file.uses {
            let Some(abs) = self.absolute(&file.module, path) else {
                continue;
            };
            let (holder, whole) = self.holder(&abs, 0);
            match bound {
                Some(name) if whole => {
                    module_imports.insert(name.clone(), holder);
                }
                _ => {
                    used.insert(holder);
                }
            }
        }
        let mut through = BTreeSet::new();
        for (path, is_macro) in &file.paths {
            if *is_macro {
                let name = path.last().expect("a macro has a name");
                if let Some(m) = self.macros.get(name) {
                    let plain = path.len() == 1 || self.absolute(&file.module, path).is_some();
                    if plain {
                        used.insert(m.clone());
                    }
                    continue;
                }
                if path.len() == 1 {
                    continue;
                }
            }
            if module_imports.contains_key(&path[0]) {
                through.insert(path[0].clone());
            }
            if let Some(abs) = self.absolute(&file.module, path) {
                used.insert(self.holder(&abs, 0).0);
            }
        }
        for (name, m) in module_imports {
            if !through.contains(&name) {
                used.insert(m);
            }
        }
        used
    }
}

fn load_crate(files: &[SourceFile]) -> Crate {
    let modules: BTreeSet<ModPath> = files.iter().map(|f| f.module.clone()).collect();
    let mut krate = Crate {
        modules,
        bindings: BTreeMap::new(),
        macros: BTreeMap::new(),
    };
    for f in files {
        for m in &f.exported_macros {
            krate.macros.insert(m.clone(), f.module.clone());
        }
        let mut b = BTreeMap::new();
        for child in &f.children {
            let mut m = f.module.clone();
            m.push(child.clone());
            b.insert(child.clone(), Binding::Crate(m));
        }
        krate.bindings.insert(f.module.clone(), b);
    }
    // `use` bindings, resolved against the bindings known so far; repeated until nothing
    // changes, so that a chain of `use`s through other `use`s settles.
    let mut changed = true;
    for round in 0.. {
        if !changed {
            break;
        }
        assert!(round < 64, "the `use` bindings do not settle");
        changed = false;
        for f in files {
            for (path, bound) in &f.uses {
                let Some(name) = bound else { continue };
                let binding = match krate.absolute(&f.module, path) {
                    Some(abs) => Binding::Crate(abs),
                    None => Binding::Outside,
                };
                let previous = krate
                    .bindings
                    .get_mut(&f.module)
                    .expect("every module has bindings")
                    .insert(name.clone(), binding.clone());
                changed |= previous != Some(binding);
            }
        }
    }
    krate
}

/// A row of the module table: its paths under src/, and its "knows about" cell.
struct Row {
    line: usize,
    paths: Vec<String>,
    knows: String,
}

fn module_rows(doc: &str) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for (n, line) in doc.lines().enumerate() {
        if line.starts_with("| path | what it holds | knows about |") {
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        if line.starts_with("|---") {
            continue;
        }
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        let (first, _) = inner.split_once(" | ").expect("a row has cells");
        let (_, last) = inner.rsplit_once(" | ").expect("a row has cells");
        let names: Vec<&str> = first.split('`').skip(1).step_by(2).collect();
        let dir = names
            .first()
            .and_then(|p| p.rsplit_once('/'))
            .map_or("", |(d, _)| d);
        let paths = names
            .iter()
            .map(|p| {
                if p.contains('/') || dir.is_empty() {
                    (*p).to_owned()
                } else {
                    format!("{dir}/{p}")
                }
            })
            .collect();
        rows.push(Row {
            line: n + 1,
            paths,
            knows: last.trim().to_owned(),
        });
    }
    rows
}

/// The module names of a "knows about" cell (`None` for a name that is not one).
fn cell_names(cell: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut depth = 0;
    for ch in cell.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => plain.push(ch),
            _ => {}
        }
    }
    plain
        .split([',', ';'])
        .map(|s| s.trim().replace('`', ""))
        .filter(|s| !s.is_empty())
        .collect()
}

/// Files with no row: module indexes (and `games::NAMES`). src/main.rs, the binary, is
/// not part of the library and is not scanned.
const WITHOUT_ROW: [&str; 5] = [
    "lib.rs",
    "games/mod.rs",
    "lab/mod.rs",
    "arena/mod.rs",
    "cluster/mod.rs",
];

/// Rows of files outside src/, which the table lists but this test does not scan.
const OUTSIDE_SRC: [&str; 1] = ["build.rs"];

#[test]
fn the_module_table_says_what_each_module_knows_about() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let files = library_files(&root.join("src"));
    let krate = load_crate(&files);
    let rows = module_rows(&doc);
    assert!(rows.len() > 40, "the module table was not found");
    let mut problems = Vec::new();

    // Each file belongs to the row that names it, or to the row of the deepest directory
    // that holds it.
    let mut owner: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &files {
        let full = format!("src/{}", f.rel);
        let mut best: Option<(usize, usize)> = None;
        for (r, row) in rows.iter().enumerate() {
            for p in &row.paths {
                let rank = if *p == full {
                    usize::MAX
                } else if p.ends_with('/') && full.starts_with(p.as_str()) {
                    p.len()
                } else {
                    continue;
                };
                if best.is_none_or(|(b, _)| rank > b) {
                    best = Some((rank, r));
                }
            }
        }
        match best {
            Some((_, r)) => {
                owner.insert(&f.rel, r);
            }
            None if f.inline || WITHOUT_ROW.contains(&f.rel.as_str()) => {}
            None => problems.push(format!("src/{}: in no row of the module table", f.rel)),
        }
    }
    for row in &rows {
        for p in &row.paths {
            if OUTSIDE_SRC.contains(&p.as_str()) {
                continue;
            }
            let Some(rel) = p.strip_prefix("src/") else {
                problems.push(format!("line {}: {p} is not under src/", row.line));
                continue;
            };
            if !files
                .iter()
                .any(|f| f.rel == rel || (rel.ends_with('/') && f.rel.starts_with(rel)))
            {
                problems.push(format!(
                    "line {}: {p} is not a file of the library",
                    row.line
                ));
            }
        }
    }

    for (r, row) in rows.iter().enumerate() {
        if !row.paths.iter().all(|p| p.starts_with("src/")) {
            continue; // reported above, or the build script
        }
        let own: Vec<&SourceFile> = files
            .iter()
            .filter(|f| owner.get(f.rel.as_str()) == Some(&r))
            .collect();
        if own.is_empty() {
            problems.push(format!(
                "line {}: {}: the row holds no file (another row holds them all)",
                row.line, row.paths[0]
            ));
            continue;
        }
        let own_modules: BTreeSet<&ModPath> = own.iter().map(|f| &f.module).collect();
        let mut used = BTreeSet::new();
        for f in &own {
            for m in krate.used_by(f) {
                if !m.is_empty() && !own_modules.contains(&m) {
                    used.insert(m);
                }
            }
        }
        // The row's module (a directory's, or a file's) and its parent, for short names.
        let first = &row.paths[0]["src/".len()..];
        let Some(module) = files
            .iter()
            .find(|f| !f.inline && (f.rel == first || f.rel == format!("{first}mod.rs")))
            .map(|f| f.module.clone())
        else {
            problems.push(format!(
                "line {}: {}: no module of the library is this file or directory",
                row.line, row.paths[0]
            ));
            continue;
        };
        let parent: ModPath = module[..module.len().saturating_sub(1)].to_vec();

        let names = cell_names(&row.knows);
        let mut covers: Vec<(String, ModPath)> = Vec::new();
        for name in &names {
            if name == "nothing" && names.len() == 1 {
                continue;
            }
            let spelled = name.trim_end_matches("/*").replace('/', "::");
            let well_formed = !spelled.is_empty()
                && spelled.split("::").all(|s| {
                    !s.is_empty()
                        && s.chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                });
            if !well_formed {
                problems.push(format!(
                    "line {}: {}: `{name}` is not a module name",
                    row.line, row.paths[0]
                ));
                continue;
            }
            let segs: ModPath = spelled.split("::").map(str::to_owned).collect();
            let mut sibling = parent.clone();
            sibling.extend(segs.iter().cloned());
            let mut child = module.clone();
            child.extend(segs.iter().cloned());
            // A path is from the crate root; one word is a sibling, a top-level module or,
            // in a mod.rs row, a child.
            let target = if segs.len() > 1 {
                segs
            } else {
                [sibling, segs, child]
                    .into_iter()
                    .find(|m| krate.modules.contains(m))
                    .unwrap_or_default()
            };
            if target.is_empty() || !krate.modules.contains(&target) {
                problems.push(format!(
                    "line {}: {}: `{name}` is not a module of the crate",
                    row.line, row.paths[0]
                ));
                continue;
            }
            covers.push((name.clone(), target));
        }
        if names.is_empty() {
            problems.push(format!(
                "line {}: {}: empty \"knows about\"",
                row.line, row.paths[0]
            ));
        }
        // A name covers its submodules, except for a row inside it: there `search` is
        // search/mod.rs alone, and the row names the siblings it uses.
        let covered =
            |u: &ModPath, c: &ModPath| u == c || (u.starts_with(c) && !module.starts_with(c));
        for u in &used {
            if !covers.iter().any(|(_, c)| covered(u, c)) {
                problems.push(format!(
                    "line {}: {}: its code uses `{}`, which the row does not name",
                    row.line,
                    row.paths[0],
                    render(u)
                ));
            }
        }
        for (name, c) in &covers {
            if !used.iter().any(|u| covered(u, c)) {
                problems.push(format!(
                    "line {}: {}: names `{name}`, which its code does not use",
                    row.line, row.paths[0]
                ));
            }
        }
        if std::env::var_os("ARCHITECTURE_DUMP").is_some() {
            let list: Vec<String> = used.iter().map(|u| render(u)).collect();
            eprintln!("{} | {}", row.paths.join(", "), list.join(", "));
        }
    }
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md's module table is not true to the code:\n{}",
        problems.join("\n")
    );
}

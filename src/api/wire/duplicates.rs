//! Repeated keys in a JSON document. JSON parsers disagree on which copy of a repeated key wins
//! (`serde_json::Value` keeps the last, others the first), so a request that repeats a field is
//! ambiguous and every route and MCP tool refuses it with a 422 naming the field, rather than
//! silently taking one copy.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::super::problem::{ApiError, ProblemCode};

/// Where a value sits in the document, rendered as a JSON pointer only when a repeat is found.
enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Root => Ok(()),
            Self::Key(parent, key) => {
                write!(f, "{parent}/{}", key.replace('~', "~0").replace('/', "~1"))
            }
            Self::Index(parent, index) => write!(f, "{parent}/{index}"),
        }
    }
}

/// The first repeated key found, as a JSON pointer to it, and the key itself.
type Found = RefCell<Option<(String, String)>>;

/// Walks one value, recording the first repeated key in `found`.
struct Scan<'p> {
    path: &'p Path<'p>,
    found: &'p Found,
}

impl<'de> DeserializeSeed<'de> for Scan<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scan<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0;
        loop {
            let path = Path::Index(self.path, index);
            let seed = Scan {
                path: &path,
                found: self.found,
            };
            if seq.next_element_seed(seed)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = Path::Key(self.path, &key);
            if keys.contains(&key) {
                let mut found = self.found.borrow_mut();
                if found.is_none() {
                    *found = Some((path.to_string(), key.clone()));
                }
                drop(found);
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            map.next_value_seed(Scan {
                path: &path,
                found: self.found,
            })?;
            keys.insert(key);
        }
        Ok(())
    }
}

/// The first key that `json` repeats within one object, as a JSON pointer (`/board`,
/// `/params/arguments/k`) and the key; `None` when no object repeats a key, or when `json` is
/// not well-formed JSON (that is for the parser that reads it to report).
#[must_use]
pub fn repeated_key(json: &[u8]) -> Option<(String, String)> {
    let found = Found::default();
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let seed = Scan {
        path: &Path::Root,
        found: &found,
    };
    seed.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    found.into_inner()
}

/// The 422 for a repeated field, naming it by its pointer.
pub(crate) fn repeated_field(pointer: String, key: &str) -> ApiError {
    ApiError::invalid(
        ProblemCode::InvalidRequest,
        pointer,
        format!("the field `{key}` appears more than once"),
    )
}

/// Refuses a well-formed JSON body that repeats a key in any object.
///
/// # Errors
/// A 422 `invalid_request` whose pointer names the repeated field.
pub(crate) fn refuse_repeated_keys(json: &[u8]) -> Result<(), ApiError> {
    match repeated_key(json) {
        Some((pointer, key)) => Err(repeated_field(pointer, &key)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::repeated_key;

    #[test]
    fn finds_the_first_repeated_key_at_any_depth_and_nothing_in_bad_json() {
        let cases: [(&str, Option<(&str, &str)>); 9] = [
            (r#"{"board": "O.XX.X.OO"}"#, None),
            (
                r#"{"board": "O.XX.X.OO", "board": "XXX"}"#,
                Some(("/board", "board")),
            ),
            (r#"{"a": {"b": 1, "b": 2}}"#, Some(("/a/b", "b"))),
            (r#"[{"x": 1}, {"y": 1, "y": 2}]"#, Some(("/1/y", "y"))),
            (r#"{"a/b": {"~": 1, "~": 2}}"#, Some(("/a~1b/~0", "~"))),
            (
                r#"{"k": 1, "k": 2, "rows": 3, "rows": 4}"#,
                Some(("/k", "k")),
            ),
            (r#"{"a": {"k": 1}, "b": {"k": 1}}"#, None),
            (r#"{"board": 1, "board": 2"#, None),
            (r#"{"board": 1, "board": 2} x"#, None),
        ];
        for (json, expected) in cases {
            let expected = expected.map(|(p, k)| (p.to_owned(), k.to_owned()));
            assert_eq!(repeated_key(json.as_bytes()), expected, "{json}");
        }
    }
}

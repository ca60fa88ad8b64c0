//! Device tokens the gateway issued (`hello-ok.payload.auth.deviceToken`),
//! kept in `<state_dir>/device-tokens.json` (0600) keyed by gateway URL and
//! bound to the device id they were issued to, so a token is only ever sent
//! back to the gateway that issued it, by the identity it was issued to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::GatewayError;
use super::private_file::{read_private, write_private};
use super::secret::Secret;

/// The token file's name inside the state directory.
pub const TOKEN_FILE: &str = "device-tokens.json";

/// The saved device tokens of one state directory.
#[derive(Debug, Clone)]
pub struct TokenStore {
    path: PathBuf,
}

#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenFile {
    version: u32,
    gateways: BTreeMap<String, SavedToken>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SavedToken {
    device_id: String,
    token: String,
}

impl TokenStore {
    /// The store in `state_dir` (which [`super::identity`] has made private).
    pub fn new(state_dir: &Path) -> Self {
        Self {
            path: state_dir.join(TOKEN_FILE),
        }
    }

    /// The file the tokens are kept in, for messages that name it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The token saved for `url` and `device_id`, if any.
    pub fn load(&self, url: &str, device_id: &str) -> Result<Option<Secret>, GatewayError> {
        let file = self.read()?;
        Ok(file
            .gateways
            .get(url)
            .filter(|saved| saved.device_id == device_id)
            .map(|saved| Secret::new(saved.token.clone())))
    }

    /// Saves `token` for `url` and `device_id`, replacing any earlier one.
    pub fn save(&self, url: &str, device_id: &str, token: &Secret) -> Result<(), GatewayError> {
        let mut file = self.read()?;
        file.gateways.insert(
            url.to_owned(),
            SavedToken {
                device_id: device_id.to_owned(),
                token: token.expose().to_owned(),
            },
        );
        self.write(&file)
    }

    /// Forgets the token saved for `url` (the gateway rejected it).
    pub fn forget(&self, url: &str) -> Result<(), GatewayError> {
        let mut file = self.read()?;
        if file.gateways.remove(url).is_some() {
            self.write(&file)?;
        }
        Ok(())
    }

    fn read(&self) -> Result<TokenFile, GatewayError> {
        let Some(bytes) = read_private(&self.path)? else {
            return Ok(TokenFile {
                version: 1,
                ..TokenFile::default()
            });
        };
        let file: TokenFile =
            serde_json::from_slice(&bytes).map_err(|e| GatewayError::BadStateFile {
                path: self.path.clone(),
                reason: format!("invalid json: {e}"),
            })?;
        if file.version != 1 {
            return Err(GatewayError::BadStateFile {
                path: self.path.clone(),
                reason: format!("unknown version {}", file.version),
            });
        }
        Ok(file)
    }

    fn write(&self, file: &TokenFile) -> Result<(), GatewayError> {
        let bytes = serde_json::to_vec_pretty(file).map_err(|e| GatewayError::BadStateFile {
            path: self.path.clone(),
            reason: e.to_string(),
        })?;
        write_private(&self.path, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_comes_back_only_for_its_gateway_and_device() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::new(dir.path());
        let token = Secret::new("dev-tok");
        store.save("ws://127.0.0.1:1/", "dev-a", &token).unwrap();
        assert_eq!(
            store.load("ws://127.0.0.1:1/", "dev-a").unwrap(),
            Some(token)
        );
        assert_eq!(store.load("ws://127.0.0.1:2/", "dev-a").unwrap(), None);
        assert_eq!(store.load("ws://127.0.0.1:1/", "dev-b").unwrap(), None);
        store.forget("ws://127.0.0.1:1/").unwrap();
        assert_eq!(store.load("ws://127.0.0.1:1/", "dev-a").unwrap(), None);
    }
}

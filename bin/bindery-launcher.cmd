@echo off
rem The `bindery` command of an installed Bindery: runs the app executable in CLI mode. It ships in
rem the app's resources\bin; the app's "Install 'bindery' command" menu puts this folder on the user PATH.
rem Plain Node cannot run the CLI here: the RunAsNode fuse is off, so the executable takes --cli.
setlocal
set "ELECTRON_RUN_AS_NODE="
set "BINDERY_APP=%~dp0..\..\Bindery.exe"
if not exist "%BINDERY_APP%" (
  echo bindery: the Bindery app was not found at %BINDERY_APP%. Reinstall Bindery, then run "Install 'bindery' command" from its menu again. 1>&2
  exit /b 1
)
"%BINDERY_APP%" --cli %*
exit /b %ERRORLEVEL%
